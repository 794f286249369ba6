package io.github.threadmodel.internal.auto;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.LogRecord;

import io.github.threadmodel.executor.ExecutorSettings.UnlimitedAdmission;
import io.github.threadmodel.executor.ExecutorSettings;
import io.github.threadmodel.executor.ThreadModel;
import io.github.threadmodel.executor.ThreadModelExecutor;
import io.github.threadmodel.executor.ThreadModelSwitcher;
import io.github.threadmodel.internal.auto.AutoThreadModelPolicy.Thresholds;
import io.github.threadmodel.testapp.CapturedLog;
import io.github.threadmodel.testapp.ExecutorFixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link AutoThreadModel} paused by a switch made by anyone else.
 */
class AutoThreadModelTests {

	private static final Thresholds THRESHOLDS = new Thresholds(Duration.ofMillis(10), 0.5, Duration.ofMillis(20),
			Duration.ofMillis(500), 3, Duration.ofSeconds(30));

	@RegisterExtension
	final ExecutorFixture fixture = new ExecutorFixture();

	private final ThreadModelExecutor requests = this.fixture.use(new ThreadModelExecutor("auto-test-",
			new ExecutorSettings(ThreadModel.VIRTUAL,
					new ExecutorSettings.PlatformPool(4, 1, null, Duration.ofSeconds(60)),
					UnlimitedAdmission.INSTANCE)));

	private final ThreadModelSwitcher switcher = new ThreadModelSwitcher(this.requests, null, true);

	@Test
	void aSwitchByHandPausesAutoAndTheInfoLineEndsWithTheResumeHintItWasGiven() {
		AutoThreadModel auto = new AutoThreadModel(this.switcher, this.requests, null, THRESHOLDS,
				Duration.ofSeconds(1), Clock.systemUTC(), "ask again to resume it");
		List<LogRecord> records = CapturedLog.during(AutoThreadModel.class, Level.INFO,
				() -> this.switcher.switchTo(ThreadModel.PLATFORM, null, null, "actuator"));
		assertThat(auto.status().active()).isFalse();
		assertThat(auto.status().pausedBy()).isEqualTo("actuator");
		assertThat(records).extracting(LogRecord::getMessage)
			.containsExactly("Thread model auto: paused, actuator switched to platform threads; ask again to resume it");
	}

}
