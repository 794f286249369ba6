package io.github.threadmodel.sample.web;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * Spring MVC sample for the thread-model starter. The embedded server (Tomcat, Jetty or Undertow) is the one
 * the Maven profile put on the class path; the thread model is {@code app.threads.model=platform|virtual}.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class SampleWebApplication {

	public static void main(String[] args) {
		SpringApplication.run(SampleWebApplication.class, args);
	}

}
