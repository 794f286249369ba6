package io.github.threadmodel.sample.configserver;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.cloud.config.server.EnableConfigServer;

/**
 * A Spring Cloud Config Server serving the files of one directory (the native backend,
 * {@code spring.cloud.config.server.native.search-locations}): what the fleet check's sample-web instances read their
 * configuration from. Spring Cloud's own server, nothing added.
 */
@SpringBootApplication
@EnableConfigServer
public class ConfigServerApplication {

	public static void main(String[] args) {
		SpringApplication.run(ConfigServerApplication.class, args);
	}

}
