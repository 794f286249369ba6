package io.github.threadmodel.executor;

import java.time.Duration;

import io.github.threadmodel.executor.ExecutorSettings.UnlimitedAdmission;
import io.github.threadmodel.testapp.ExecutorFixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

class SwitchSourceTests {

	@RegisterExtension
	final ExecutorFixture fixture = new ExecutorFixture();

	private final ThreadModelExecutor requests = this.fixture.use(new ThreadModelExecutor("source-",
			new ExecutorSettings(ThreadModel.PLATFORM, new ExecutorSettings.PlatformPool(2, 1, null,
					Duration.ofSeconds(60)), UnlimitedAdmission.INSTANCE)));

	private final ThreadModelSwitcher switcher = new ThreadModelSwitcher(this.requests, null, true);

	@Test
	void aSwitchKeepsTheSourceItWasAskedWith() {
		this.switcher.apply(new SwitchRequest(ThreadModelChoice.VIRTUAL, null, null, SwitchSource.CONFIGURATION,
				"configuration: app.threads.model=virtual"));
		ModelSwitch change = this.requests.switchHistory().get(0);
		assertThat(change.source()).isEqualTo(SwitchSource.CONFIGURATION);
		assertThat(change.source().id()).isEqualTo("configuration");
		assertThat(change.requestedBy()).isEqualTo("configuration: app.threads.model=virtual");
	}

	@Test
	void anApplicationSwitchWhoseTextStartsLikeAnotherSourceKeepsApplication() {
		assertThat(this.switcher.switchTo(ThreadModel.VIRTUAL, null, null, "actuator-job").source())
			.isEqualTo(SwitchSource.APPLICATION);
		assertThat(this.switcher.switchTo(ThreadModel.PLATFORM, null, null, "auto: my rollout").source())
			.isEqualTo(SwitchSource.APPLICATION);
		assertThat(this.switcher.switchTo(ThreadModel.VIRTUAL, null, null, "configuration: by hand").source())
			.isEqualTo(SwitchSource.APPLICATION);
	}

	@Test
	void anEndpointSwitchWhateverItsTextIsRecordedAsTheEndpoints() {
		this.switcher.apply(SwitchRequest.to(ThreadModelChoice.VIRTUAL, SwitchSource.ENDPOINT, "my-rollout-job"));
		assertThat(this.requests.switchHistory().get(0).source()).isEqualTo(SwitchSource.ENDPOINT);
	}

}
