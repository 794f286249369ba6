package io.github.threadmodel.sample.reactive;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The users are in the database before the server takes its first request, so that the sample never says it is
 * healthy while {@code /users/1} would answer 404.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class SeededBeforeTheServerStartsTest {

	@Autowired
	ServerStartProbe probe;

	@Test
	void usersExistWhenTheServerStarts() {
		assertThat(this.probe.userOneExisted).isTrue();
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class ProbeConfiguration {

		@Bean
		ServerStartProbe serverStartProbe(UserRepository repository) {
			return new ServerStartProbe(repository);
		}

	}

	/**
	 * Starts in the phase just before Spring Boot's web server starts (it starts in
	 * {@code SmartLifecycle.DEFAULT_PHASE - 2048} on both Boot lines) and records what a first request would find.
	 */
	static class ServerStartProbe implements SmartLifecycle {

		private final UserRepository repository;

		volatile Boolean userOneExisted;

		private volatile boolean running;

		ServerStartProbe(UserRepository repository) {
			this.repository = repository;
		}

		@Override
		public void start() {
			this.userOneExisted = this.repository.existsById(1).block(Duration.ofSeconds(30));
			this.running = true;
		}

		@Override
		public void stop() {
			this.running = false;
		}

		@Override
		public boolean isRunning() {
			return this.running;
		}

		@Override
		public int getPhase() {
			return SmartLifecycle.DEFAULT_PHASE - 2048 - 1;
		}

	}

}
