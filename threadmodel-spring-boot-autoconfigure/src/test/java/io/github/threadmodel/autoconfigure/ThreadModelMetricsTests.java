package io.github.threadmodel.autoconfigure;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import io.github.threadmodel.executor.ExecutorSettings.OverloadProtection;
import io.github.threadmodel.executor.ExecutorSettings.UnlimitedAdmission;
import io.github.threadmodel.executor.ExecutorSettings;
import io.github.threadmodel.executor.Refusal;
import io.github.threadmodel.executor.ThreadModel;
import io.github.threadmodel.executor.ThreadModelExecutor;
import io.github.threadmodel.executor.ThreadModelSwitcher;
import io.github.threadmodel.internal.requests.RequestCounts;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The meters keep their identities across switches: the same meters before and after,
 * counters that go on from where they were, one gauge per model saying which is in force,
 * and one switch counted per switch of the server's model.
 */
class ThreadModelMetricsTests {

	private static final ExecutorSettings PLATFORM = new ExecutorSettings(ThreadModel.PLATFORM,
			new ExecutorSettings.PlatformPool(1, 0, 0, Duration.ofSeconds(60)), UnlimitedAdmission.INSTANCE);

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final RequestCounts counts = new RequestCounts();

	@Test
	void switchesChangeNoMeterAndCountersGoOn() throws Exception {
		try (ThreadModelExecutor requests = new ThreadModelExecutor("metrics-", PLATFORM, new OverloadProtection(null));
				ThreadModelExecutor tasks = new ThreadModelExecutor("metrics-tasks-", PLATFORM)) {
			new ThreadModelMetrics(requests, tasks, this.counts, null, () -> "tomcat", Map.of()).bindTo(this.registry);
			Set<Meter.Id> before = ids();
			assertThat(before).extracting(Meter.Id::getName)
				.contains("threadmodel.model", "threadmodel.switches", "threadmodel.requests.received",
						"threadmodel.requests.completed", "threadmodel.requests.rejected", "threadmodel.queue.wait",
						"threadmodel.carrier.wait", "executor.active", "executor.queued", "executor.pool.size",
						"executor.pool.max", "executor.completed");
			assertThat(before).allSatisfy((id) -> assertThat(id.getTag("model") == null
					|| id.getName().equals("threadmodel.model")).as(id.toString()).isTrue());
			run(requests, 3);
			assertThat(completed()).isEqualTo(3);
			assertThat(model("platform")).isEqualTo(1);
			assertThat(model("virtual")).isZero();
			ThreadModelSwitcher switcher = new ThreadModelSwitcher(requests, tasks, true);
			switcher.switchTo(ThreadModel.VIRTUAL, null, null, "test");
			run(requests, 2);
			assertThat(ids()).isEqualTo(before);
			assertThat(completed()).isEqualTo(5);
			assertThat(model("platform")).isZero();
			assertThat(model("virtual")).isEqualTo(1);
			assertThat(this.registry.get("executor.pool.size").tag("name", "threadModelRequestExecutor").gauge().value())
				.isZero();
			assertThat(this.registry.get("executor.pool.max").tag("name", "threadModelRequestExecutor").gauge().value())
				.isNaN();
			switcher.switchTo(ThreadModel.PLATFORM, null, null, "test");
			assertThat(ids()).isEqualTo(before);
			// the task executor followed each switch: still one switch each way
			assertThat(switches("platform", "virtual")).isEqualTo(1);
			assertThat(switches("virtual", "platform")).isEqualTo(1);
			assertThat(switches("platform", "platform")).isZero();
		}
	}

	@Test
	void requestMetersReadTheHttpCounts() {
		try (ThreadModelExecutor requests = new ThreadModelExecutor("metrics-", PLATFORM)) {
			new ThreadModelMetrics(requests, null, this.counts, null, () -> "jetty", Map.of()).bindTo(this.registry);
			for (int i = 0; i < 4; i++) {
				this.counts.onReceived();
			}
			this.counts.onCompleted();
			this.counts.onRejected(Refusal.QUEUE_FULL);
			this.counts.onRejected(Refusal.QUEUE_TIMEOUT);
			this.counts.onRejected(Refusal.QUEUE_TIMEOUT);
			assertThat(this.registry.get("threadmodel.requests.received").tag("server", "jetty").functionCounter()
				.count()).isEqualTo(4);
			assertThat(this.registry.get("threadmodel.requests.completed").functionCounter().count()).isEqualTo(1);
			assertThat(this.registry.get("threadmodel.requests.rejected").tag("reason", "queue-full")
				.functionCounter().count()).isEqualTo(1);
			assertThat(this.registry.get("threadmodel.requests.rejected").tag("reason", "queue-timeout")
				.functionCounter().count()).isEqualTo(2);
			assertThat(this.registry.find("executor.active").tag("name", "applicationTaskExecutor").gauge()).isNull();
		}
	}

	private Set<Meter.Id> ids() {
		return this.registry.getMeters().stream().map(Meter::getId).collect(Collectors.toSet());
	}

	private double completed() {
		return this.registry.get("executor.completed").tag("name", "threadModelRequestExecutor").functionCounter()
			.count();
	}

	private double model(String model) {
		return this.registry.get("threadmodel.model").tags("model", model, "server", "tomcat").gauge().value();
	}

	private double switches(String from, String to) {
		return this.registry.get("threadmodel.switches").tags("from", from, "to", to).functionCounter().count();
	}

	/**
	 * Runs tasks one after the other, each once the previous has completed, so that none
	 * finds the one thread busy.
	 */
	private static void run(ThreadModelExecutor executor, int tasks) {
		for (int i = 0; i < tasks; i++) {
			long done = executor.stats().completed() + 1;
			executor.execute(() -> {
			});
			await().atMost(Duration.ofSeconds(10))
				.pollInterval(Duration.ofMillis(5))
				.untilAsserted(() -> assertThat(executor.stats().completed()).as("%s", executor.stats())
					.isGreaterThanOrEqualTo(done));
		}
		assertThat(executor.stats().rejected()).isZero();
	}

}
