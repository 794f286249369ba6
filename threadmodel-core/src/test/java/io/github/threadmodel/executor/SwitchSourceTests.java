package io.github.threadmodel.executor;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SwitchSourceTests {

	@Test
	void readsTheSourceFromTheStartOfRequestedBy() {
		assertThat(SwitchSource.of("actuator")).isEqualTo(SwitchSource.ENDPOINT);
		assertThat(SwitchSource.of("actuator (ops)")).isEqualTo(SwitchSource.ENDPOINT);
		assertThat(SwitchSource.of("configuration: app.threads.model=virtual")).isEqualTo(SwitchSource.CONFIGURATION);
		assertThat(SwitchSource.of("auto: CPU-bound requests hold the carriers")).isEqualTo(SwitchSource.AUTO);
		assertThat(SwitchSource.of("my-rollout-job")).isEqualTo(SwitchSource.APPLICATION);
		assertThat(SwitchSource.of("")).isEqualTo(SwitchSource.APPLICATION);
	}

	@Test
	void aSwitchSaysItsSource() {
		try (ThreadModelExecutor executor = new ThreadModelExecutor("source-", new ExecutorSettings(
				ThreadModel.PLATFORM, new ExecutorSettings.PlatformPool(2, 1, null, Duration.ofSeconds(60)),
				null))) {
			ModelSwitch change = new ThreadModelSwitcher(executor, null, true).switchTo(ThreadModel.VIRTUAL, null,
					null, SwitchSource.CONFIGURATION.prefix() + "app.threads.model=virtual");
			assertThat(change.source()).isEqualTo(SwitchSource.CONFIGURATION);
			assertThat(change.source().id()).isEqualTo("configuration");
		}
	}

}
