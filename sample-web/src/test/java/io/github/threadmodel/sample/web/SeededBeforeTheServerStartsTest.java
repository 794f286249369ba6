package io.github.threadmodel.sample.web;

import io.github.threadmodel.sample.support.SeededBeforeTheServerStartsTestSupport;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

/** The users are seeded over JPA before the server starts. */
class SeededBeforeTheServerStartsTest extends SeededBeforeTheServerStartsTestSupport {

	@TestConfiguration(proxyBeanMethods = false)
	static class ProbeConfiguration {

		@Bean
		ServerStartProbe serverStartProbe(UserRepository repository) {
			return new ServerStartProbe(() -> repository.existsById(1L));
		}

	}

}
