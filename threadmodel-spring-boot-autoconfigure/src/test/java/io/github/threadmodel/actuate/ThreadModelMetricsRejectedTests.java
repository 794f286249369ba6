package io.github.threadmodel.actuate;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.github.threadmodel.executor.ExecutorSettings;
import io.github.threadmodel.executor.OverloadProtection;
import io.github.threadmodel.executor.ThreadModel;
import io.github.threadmodel.executor.ThreadModelExecutor;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code threadmodel.requests.rejected} counts the requests refused under overload, and
 * keeps its total when a switch registers it again under the new {@code model} tag.
 */
class ThreadModelMetricsRejectedTests {

	@Test
	void rejectedCounterFollowsTheModelAcrossASwitch() throws Exception {
		ExecutorSettings platform = new ExecutorSettings(ThreadModel.PLATFORM,
				new ExecutorSettings.PlatformPool(1, 0, 0, Duration.ofSeconds(60)), null);
		CountDownLatch release = new CountDownLatch(1);
		try (ThreadModelExecutor executor = new ThreadModelExecutor("metrics-", platform,
				new OverloadProtection(null))) {
			SimpleMeterRegistry registry = new SimpleMeterRegistry();
			new ThreadModelMetrics(executor, null, () -> "tomcat").bindTo(registry);
			executor.execute(() -> await(release));
			CountDownLatch refused = new CountDownLatch(2);
			executor.execute(refused::countDown);
			executor.execute(refused::countDown);
			assertThat(refused.await(10, TimeUnit.SECONDS)).isTrue();
			assertThat(rejected(registry, "platform")).isEqualTo(2);
			executor.switchTo(platform.with(ThreadModel.VIRTUAL, null, null), "test");
			assertThat(registry.find("threadmodel.requests.rejected").tag("model", "platform").functionCounter())
				.isNull();
			assertThat(rejected(registry, "virtual")).isEqualTo(2);
			release.countDown();
		}
	}

	private static double rejected(SimpleMeterRegistry registry, String model) {
		return registry.get("threadmodel.requests.rejected")
			.tags("model", model, "server", "tomcat")
			.functionCounter()
			.count();
	}

	private static void await(CountDownLatch latch) {
		try {
			latch.await();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
