package io.github.threadmodel.sample.support;

import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.context.SmartLifecycle;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The users are in the database before the server takes its first request, so that a sample never says it is
 * healthy while {@code /users/1} would answer 404. Each sample's subclass defines the {@link ServerStartProbe} bean
 * with its own (blocking or reactive) repository.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
public abstract class SeededBeforeTheServerStartsTestSupport {

	@Autowired
	ServerStartProbe probe;

	@Test
	void usersExistWhenTheServerStarts() {
		assertThat(this.probe.userOneExisted).isTrue();
	}

	/**
	 * Starts in the phase just before Spring Boot's web server starts (it starts in
	 * {@code SmartLifecycle.DEFAULT_PHASE - 2048} on both Boot lines) and records what a first request would find.
	 */
	public static class ServerStartProbe implements SmartLifecycle {

		private final BooleanSupplier userOneExists;

		private volatile Boolean userOneExisted;

		private volatile boolean running;

		/** @param userOneExists asks the sample's database whether user 1 exists */
		public ServerStartProbe(BooleanSupplier userOneExists) {
			this.userOneExists = userOneExists;
		}

		@Override
		public void start() {
			this.userOneExisted = this.userOneExists.getAsBoolean();
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
