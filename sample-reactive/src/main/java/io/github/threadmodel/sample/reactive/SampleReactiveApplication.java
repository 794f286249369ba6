package io.github.threadmodel.sample.reactive;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * Spring WebFlux sample for the thread-model starter, on Reactor Netty. Reactive handlers run on Netty's event
 * loops whatever the model; handlers that return a plain value (here {@code /cpu}) run on the starter's request
 * executor, whose threads follow {@code app.threads.model=platform|virtual}.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class SampleReactiveApplication {

	public static void main(String[] args) {
		SpringApplication.run(SampleReactiveApplication.class, args);
	}

}
