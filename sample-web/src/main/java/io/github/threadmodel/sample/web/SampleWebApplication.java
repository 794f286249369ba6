package io.github.threadmodel.sample.web;

import io.github.threadmodel.sample.support.RedisClientConfiguration;
import io.github.threadmodel.sample.support.SampleProperties;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Import;

/**
 * Spring MVC sample for the thread-model starter. The embedded server (Tomcat or Jetty; Undertow on Boot 3.5) is the one
 * the Maven profile put on the class path; the thread model is {@code app.threads.model=platform|virtual}. The
 * settings and the Redis client options are sample-support's, shared with sample-reactive.
 */
@SpringBootApplication
@EnableConfigurationProperties(SampleProperties.class)
@Import(RedisClientConfiguration.class)
public class SampleWebApplication {

	public static void main(String[] args) {
		SpringApplication.run(SampleWebApplication.class, args);
	}

}
