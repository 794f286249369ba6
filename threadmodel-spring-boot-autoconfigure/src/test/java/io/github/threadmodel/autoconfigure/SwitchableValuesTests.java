package io.github.threadmodel.autoconfigure;

import java.time.Duration;

import io.github.threadmodel.executor.ExecutorSettings;
import io.github.threadmodel.executor.ExecutorSettings.FixedAdmission;
import io.github.threadmodel.executor.ExecutorSettings.PlatformPool;
import io.github.threadmodel.executor.ExecutorSettings.UnlimitedAdmission;
import io.github.threadmodel.executor.SwitchRequest;
import io.github.threadmodel.executor.SwitchSource;
import io.github.threadmodel.executor.ThreadModel;
import io.github.threadmodel.executor.ThreadModelChoice;
import org.apache.commons.logging.Log;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.BDDMockito.then;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;

/**
 * The server's and a lane's switchable values: one reading of what changed, named by the
 * properties of each.
 */
class SwitchableValuesTests {

	private final Log logger = mock(Log.class);

	@Test
	void aLanesChangesAreNamedByItsProperties() {
		SwitchableValues before = SwitchableValues.lane("cpu", lane(ThreadModel.PLATFORM, 2, null));
		SwitchableValues after = SwitchableValues.lane("cpu", lane(ThreadModel.VIRTUAL, 4, 8));
		assertThat(after.changesFrom(before)).containsExactly("app.threads.lanes.cpu.model=virtual",
				"app.threads.lanes.cpu.platform.max-threads=4", "app.threads.lanes.cpu.virtual.max-concurrency=8");
		SwitchRequest request = after.switchFrom(before, after.modelIfChangedFrom(before), "cpu");
		assertThat(request).isEqualTo(new SwitchRequest(ThreadModelChoice.VIRTUAL, 4, 8, SwitchSource.CONFIGURATION,
				"configuration: app.threads.lanes.cpu.model=virtual, app.threads.lanes.cpu.platform.max-threads=4, "
						+ "app.threads.lanes.cpu.virtual.max-concurrency=8",
				"cpu"));
	}

	@Test
	void onlyWhatChangedIsAskedFor() {
		SwitchableValues before = new SwitchableValues(SwitchableValues.SERVER, ThreadModelChoice.VIRTUAL, 200, 50);
		SwitchableValues after = new SwitchableValues(SwitchableValues.SERVER, ThreadModelChoice.VIRTUAL, 200, 80);
		assertThat(after.changesFrom(before)).containsExactly("app.threads.virtual.max-concurrency=80");
		assertThat(after.modelIfChangedFrom(before)).isNull();
		assertThat(after.switchFrom(before, null, null)).isEqualTo(new SwitchRequest(null, null, 80,
				SwitchSource.CONFIGURATION, "configuration: app.threads.virtual.max-concurrency=80", null));
	}

	@Test
	void aRemovedFixedLimitIsKeptWithAWarningThatNamesItsProperty() {
		SwitchableValues before = SwitchableValues.lane("io", lane(ThreadModel.VIRTUAL, 200, 5));
		SwitchableValues removed = SwitchableValues.lane("io", lane(ThreadModel.VIRTUAL, 200, null));
		SwitchableValues kept = removed.keepingRemovedLimit(before, "Lane io", this.logger);
		assertThat(kept).isEqualTo(before);
		assertThat(kept.changesFrom(before)).isEmpty();
		then(this.logger).should()
			.warn("Lane io keeps the fixed limit app.threads.lanes.io.virtual.max-concurrency=5: the property was "
					+ "removed, but a running application cannot go back to an adaptive or no limit; that takes a "
					+ "restart");
	}

	@Test
	void aLimitNotRemovedIsLeftAlone() {
		SwitchableValues before = SwitchableValues.lane("io", lane(ThreadModel.VIRTUAL, 200, 5));
		SwitchableValues changed = SwitchableValues.lane("io", lane(ThreadModel.VIRTUAL, 200, 9));
		assertThat(changed.keepingRemovedLimit(before, "Lane io", this.logger)).isSameAs(changed);
		then(this.logger).should(never()).warn(anyString());
	}

	private static ExecutorSettings lane(ThreadModel model, int maxThreads, Integer maxConcurrency) {
		return new ExecutorSettings(model, new PlatformPool(maxThreads, Math.min(10, maxThreads), null,
				Duration.ofSeconds(60)),
				(maxConcurrency != null) ? new FixedAdmission(maxConcurrency) : UnlimitedAdmission.INSTANCE);
	}

}
