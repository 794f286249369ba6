package io.github.threadmodel.sample.reactive;

import io.github.threadmodel.sample.support.RedisClientConfiguration;
import io.github.threadmodel.sample.support.SampleProperties;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Import;

/**
 * Spring WebFlux sample for the thread-model starter, on Reactor Netty. Reactive handlers run on Netty's event
 * loops whatever the model; handlers that return a plain value (here {@code /cpu}) run on the starter's request
 * executor, whose threads follow {@code app.threads.model=platform|virtual}. The settings and the Redis client
 * options are sample-support's, shared with sample-web.
 */
@SpringBootApplication
@EnableConfigurationProperties(SampleProperties.class)
@Import(RedisClientConfiguration.class)
public class SampleReactiveApplication {

	public static void main(String[] args) {
		SpringApplication.run(SampleReactiveApplication.class, args);
	}

}
