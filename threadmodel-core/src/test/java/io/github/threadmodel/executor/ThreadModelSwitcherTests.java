package io.github.threadmodel.executor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.github.threadmodel.executor.ExecutorSettings.TaskLimit;
import io.github.threadmodel.executor.ExecutorSettings.UnlimitedAdmission;
import io.github.threadmodel.executor.SwitchOutcome.Refused.Reason;
import io.github.threadmodel.executor.SwitchOutcome.Refused;
import io.github.threadmodel.executor.SwitchOutcome.Switched;
import io.github.threadmodel.executor.SwitchOutcome.Unchanged;
import io.github.threadmodel.testapp.ExecutorFixture;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class ThreadModelSwitcherTests {

	@RegisterExtension
	final ExecutorFixture fixture = new ExecutorFixture();

	private final ThreadModelExecutor requests = this.fixture.use(new ThreadModelExecutor("switcher-",
			new ExecutorSettings(ThreadModel.VIRTUAL,
					new ExecutorSettings.PlatformPool(4, 1, null, Duration.ofSeconds(60)),
					UnlimitedAdmission.INSTANCE)));

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
				new ExecutorSettings.PlatformPool(Integer.MAX_VALUE, 1, null, Duration.ofSeconds(60)),
				UnlimitedAdmission.INSTANCE);
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

	@Test
	void aRequestForTheModelInForceIsUnchangedAndRecordsNothing() {
		assertThat(this.switcher.apply(SwitchRequest.to(ThreadModelChoice.VIRTUAL, SwitchSource.ENDPOINT, "actuator")))
			.isEqualTo(new Unchanged(ThreadModel.VIRTUAL));
		assertThat(this.requests.switchHistory()).isEmpty();
	}

	@Test
	void aRequestWithoutAModelChangesOnlyTheLimits() {
		SwitchOutcome outcome = this.switcher.apply(new SwitchRequest(null, 9, null, SwitchSource.CONFIGURATION,
				"configuration: app.threads.platform.max-threads=9"));
		assertThat(outcome).isInstanceOfSatisfying(Switched.class, (switched) -> {
			assertThat(switched.change().to()).isEqualTo(ThreadModel.VIRTUAL);
			assertThat(switched.change().source()).isEqualTo(SwitchSource.CONFIGURATION);
		});
		assertThat(this.requests.getSettings().platform().maxThreads()).isEqualTo(9);
	}

	@Test
	void aLimitBelowOneIsRefusedAndNothingChanges() {
		SwitchOutcome outcome = this.switcher
			.apply(new SwitchRequest(ThreadModelChoice.PLATFORM, 4, 0, SwitchSource.ENDPOINT, "actuator"));
		assertThat(outcome).isEqualTo(new Refused(Reason.INVALID_LIMIT,
				"maxConcurrency must be a whole number of 1 or more, not 0"));
		assertThat(this.requests.getModel()).isEqualTo(ThreadModel.VIRTUAL);
		assertThat(this.requests.switchHistory()).isEmpty();
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.switcher.switchTo(ThreadModel.PLATFORM, 0, null, "test"))
			.withMessage("maxThreads must be a whole number of 1 or more, not 0");
	}

	@Test
	void everyRequestIsRefusedWhenSwitchingIsDisabled() {
		ThreadModelSwitcher disabled = new ThreadModelSwitcher(this.requests, null, false);
		assertThat(disabled.apply(SwitchRequest.to(ThreadModelChoice.PLATFORM, SwitchSource.ENDPOINT, "actuator")))
			.isInstanceOfSatisfying(Refused.class, (refused) -> assertThat(refused.reason()).isEqualTo(Reason.DISABLED));
		assertThatIllegalStateException()
			.isThrownBy(() -> disabled.switchTo(ThreadModel.PLATFORM, null, null, "test"))
			.withMessageContaining("app.threads.switching.enabled=false");
		assertThat(this.requests.getModel()).isEqualTo(ThreadModel.VIRTUAL);
	}

	@Test
	void autoIsRefusedWhenNothingResumesIt() {
		assertThat(this.switcher.apply(SwitchRequest.to(ThreadModelChoice.AUTO, SwitchSource.ENDPOINT, "actuator")))
			.isInstanceOfSatisfying(Refused.class, (refused) -> assertThat(refused.reason()).isEqualTo(Reason.NO_AUTO));
	}

	@Test
	void autoAppliesTheLimitsFirstThenResumes() {
		List<String> events = new ArrayList<>();
		this.requests.onSwitch((change) -> events.add("switched by " + change.source().id()));
		this.switcher.onResumeAuto(() -> events.add("resumed"));
		SwitchOutcome outcome = this.switcher
			.apply(new SwitchRequest(ThreadModelChoice.AUTO, null, 6, SwitchSource.ENDPOINT, "actuator"));
		assertThat(outcome).isInstanceOf(Switched.class);
		assertThat(this.requests.getModel()).isEqualTo(ThreadModel.VIRTUAL);
		assertThat(this.requests.getSettings().maxConcurrency()).isEqualTo(6);
		assertThat(events).containsExactly("switched by endpoint", "resumed");
	}


	@Test
	void aLaneSwitchesAloneAndTheServerStays() {
		ThreadModelExecutor lane = this.fixture.use(new ThreadModelExecutor("switcher-lane-",
				new ExecutorSettings(ThreadModel.PLATFORM,
						new ExecutorSettings.PlatformPool(2, 1, null, Duration.ofSeconds(60)),
						UnlimitedAdmission.INSTANCE)));
		this.switcher.addLane("cpu", lane);
		SwitchOutcome outcome = this.switcher.apply(new SwitchRequest(ThreadModelChoice.VIRTUAL, null, 3,
				SwitchSource.ENDPOINT, "actuator", "cpu"));
		assertThat(outcome).isInstanceOfSatisfying(Switched.class,
				(switched) -> assertThat(switched.change().to()).isEqualTo(ThreadModel.VIRTUAL));
		assertThat(lane.getModel()).isEqualTo(ThreadModel.VIRTUAL);
		assertThat(lane.getSettings().maxConcurrency()).isEqualTo(3);
		assertThat(this.requests.switchHistory()).isEmpty();
		assertThat(this.switcher.apply(new SwitchRequest(null, null, 3, SwitchSource.ENDPOINT, "actuator", "cpu")))
			.isEqualTo(new Unchanged(ThreadModel.VIRTUAL));
	}

	@Test
	void aLaneThatIsNotConfiguredOrAutoIsRefused() {
		this.switcher.addLane("io", this.requests);
		assertThat(this.switcher.apply(new SwitchRequest(ThreadModelChoice.PLATFORM, null, null, SwitchSource.ENDPOINT,
				"actuator", "gpu")))
			.isEqualTo(new Refused(Reason.INVALID_LANE, "No lane 'gpu'; lanes: io"));
		assertThat(this.switcher.apply(new SwitchRequest(ThreadModelChoice.AUTO, null, null, SwitchSource.ENDPOINT,
				"actuator", "io")))
			.isEqualTo(new Refused(Reason.INVALID_LANE, "A lane runs on platform or virtual threads, not auto"));
		assertThat(this.requests.switchHistory()).isEmpty();
	}

}
