package io.github.threadmodel.executor;

import java.time.Duration;

import io.github.threadmodel.executor.ExecutorSettings.TaskLimit;
import io.github.threadmodel.testapp.ExecutorFixture;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

class ThreadModelSwitcherTests {

	@RegisterExtension
	final ExecutorFixture fixture = new ExecutorFixture();

	private final ThreadModelExecutor requests = this.fixture.use(new ThreadModelExecutor("switcher-",
			new ExecutorSettings(ThreadModel.VIRTUAL,
					new ExecutorSettings.PlatformPool(4, 1, null, Duration.ofSeconds(60)), null)));

	private final ThreadModelSwitcher switcher = new ThreadModelSwitcher(this.requests, null, true);

	@Test
	void theModelInForceWithTheSameLimitsSwitchesNothing() {
		assertThat(this.switcher.switchTo(ThreadModel.VIRTUAL, null, null, "test")).isNull();
		assertThat(this.requests.switchHistory()).isEmpty();
	}

	@Test
	void theModelInForceWithANewLimitIsASwitch() {
		ModelSwitch change = this.switcher.switchTo(ThreadModel.VIRTUAL, null, 5, "test");
		assertThat(change.from()).isEqualTo(ThreadModel.VIRTUAL);
		assertThat(change.to()).isEqualTo(ThreadModel.VIRTUAL);
		assertThat(this.requests.getSettings().maxConcurrency()).isEqualTo(5);
		assertThat(this.requests.switchHistory()).containsExactly(change);
	}

	@Test
	void theFollowingTaskExecutorTakesTheModelAndKeepsItsOwnLimits() {
		ExecutorSettings taskSettings = new ExecutorSettings(ThreadModel.VIRTUAL,
				new ExecutorSettings.PlatformPool(Integer.MAX_VALUE, 1, null, Duration.ofSeconds(60)), null);
		try (ThreadModelExecutor tasks = new ThreadModelExecutor("switcher-task-", taskSettings, (TaskLimit) null)) {
			ThreadModelSwitcher switcher = new ThreadModelSwitcher(this.requests, tasks, true);
			switcher.switchTo(ThreadModel.VIRTUAL, null, 5, "test");
			assertThat(tasks.switchHistory()).isEmpty();
			switcher.switchTo(ThreadModel.PLATFORM, 8, null, "test");
			assertThat(tasks.getModel()).isEqualTo(ThreadModel.PLATFORM);
			assertThat(tasks.getSettings().platform().maxThreads()).isEqualTo(Integer.MAX_VALUE);
			assertThat(tasks.getSettings().maxConcurrency()).isNull();
			assertThat(this.requests.getSettings().platform().maxThreads()).isEqualTo(8);
		}
	}

}
