package io.github.threadmodel;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

import io.github.threadmodel.testapp.Http;
import io.github.threadmodel.testapp.TestServers;
import org.junit.jupiter.api.Test;

import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code app.threads.model=auto} on a real Tomcat: CPU-bound requests that hold every
 * carrier make it leave virtual threads; blocking requests that exhaust a small platform
 * pool make it switch back; a switch by hand pauses it until {@code model=auto} is
 * posted. Short windows and dwell keep the test quick; the limits are generous for a
 * loaded machine.
 */
class AutoThreadModelIntegrationTests {

	private static final Duration LIMIT = Duration.ofSeconds(90);

	@Test
	@SuppressWarnings("unchecked")
	void followsTheWorkloadBothWaysAndPausesOnAManualSwitch() throws Exception {
		try (ConfigurableApplicationContext context = TestServers.TOMCAT.start("app.threads.model=auto",
				"app.threads.platform.max-threads=4", "app.threads.auto.window=200ms",
				"app.threads.auto.agreeing-windows=2", "app.threads.auto.min-dwell=1s",
				// the windows alone decide here; the switch at once has its own test
				"app.threads.auto.severe-scheduling-delay=1h", "management.endpoint.threadmodel.access=unrestricted")) {
			Http http = new Http(context);
			assertThat(http.threadModel()).containsEntry("model", "virtual")
				.containsEntry("modelSource", "app.threads.model=auto");
			assertThat(auto(http)).containsEntry("active", true)
				.containsEntry("choice", "virtual")
				.containsEntry("decisions", List.of());

			Map<String, Object> toPlatform = switchToPlatformUnderCpuBoundRequests(http, 50);
			assertThat((String) toPlatform.get("reason")).contains("for a carrier thread, on average")
				.contains("starve the others");
			Map<String, Object> afterSwitch = http.threadModel();
			List<Map<String, Object>> switches = (List<Map<String, Object>>) afterSwitch.get("switches");
			assertThat((String) switches.get(0).get("requestedBy")).startsWith("auto: ");
			// the application task executor follows the server's model, so it follows auto too
			assertThat((Map<String, Object>) afterSwitch.get("tasks")).containsEntry("model", "platform");

			try (Clients blocking = new Clients(12, (id) -> http.send("/echo?id=" + id + "&sleepMs=100"))) {
				awaitAuto(http, (auto) -> "virtual".equals(auto.get("choice")));
				assertThat(decisions(http)).anySatisfy((decision) -> {
					assertThat(decision).containsEntry("from", "platform").containsEntry("to", "virtual");
					assertThat((String) decision.get("reason")).contains("every platform thread was busy")
						.contains("they are blocked");
					assertThat((Map<String, Object>) decision.get("figures")).containsEntry("poolExhausted", true);
				});

				HttpResponse<String> manual = http.postThreadModel("{\"model\":\"platform\"}");
				assertThat(manual.statusCode()).as(manual.body()).isEqualTo(200);
				Map<String, Object> paused = awaitAuto(http,
						(auto) -> ((String) auto.get("reason")).startsWith("paused"));
				assertThat(paused).containsEntry("active", false)
					.containsEntry("pausedBy", "actuator")
					.containsEntry("choice", "platform");

				HttpResponse<String> resumed = http.postThreadModel("{\"model\":\"auto\"}");
				assertThat(resumed.statusCode()).as(resumed.body()).isEqualTo(200);
				assertThat(resumed.body()).contains("\"active\":true");
				// the blocking load still runs: auto takes over again and leaves the small platform pool
				awaitAuto(http, (auto) -> "virtual".equals(auto.get("choice")));
				assertThat(blocking.failures()).isZero();
			}
		}
	}

	@Test
	@SuppressWarnings("unchecked")
	void carriersHeldPastTheSevereDelaySwitchAtOnceWithoutAgreeingWindows() throws Exception {
		// 100 ms, with requests of 200 ms: how long one probe waits depends on the machine (with
		// 50 ms requests, on a busy one, never 500 ms), and the test is about switching at once
		try (ConfigurableApplicationContext context = TestServers.TOMCAT.start("app.threads.model=auto",
				"app.threads.auto.agreeing-windows=1000", "app.threads.auto.severe-scheduling-delay=100ms")) {
			Map<String, Object> toPlatform = switchToPlatformUnderCpuBoundRequests(new Http(context), 200);
			assertThat((String) toPlatform.get("reason")).contains("for a carrier thread and still waits")
				.contains("(switch at once from 100.0 ms)");
			// the switch ended its window early: the figures are the decision's own
			assertThat((Map<String, Object>) toPlatform.get("figures")).containsEntry("model", "virtual");
		}
	}

	/**
	 * Sends requests that compute for {@code spinMs}, three clients a processor, until auto
	 * has left virtual threads, and answers its decision.
	 */
	private static Map<String, Object> switchToPlatformUnderCpuBoundRequests(Http http, int spinMs)
			throws Exception {
		int spinners = 3 * Runtime.getRuntime().availableProcessors();
		try (Clients cpu = new Clients(spinners, (id) -> http.send("/spin?ms=" + spinMs))) {
			awaitAuto(http, (auto) -> "platform".equals(auto.get("choice")));
			assertThat(cpu.failures()).isZero();
		}
		Map<String, Object> toPlatform = decisions(http).get(0);
		assertThat(toPlatform).containsEntry("from", "virtual").containsEntry("to", "platform");
		return toPlatform;
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> auto(Http http) {
		return (Map<String, Object>) http.threadModel().get("auto");
	}

	@SuppressWarnings("unchecked")
	private static List<Map<String, Object>> decisions(Http http) {
		return (List<Map<String, Object>>) auto(http).get("decisions");
	}

	private static Map<String, Object> awaitAuto(Http http, Predicate<Map<String, Object>> condition) {
		return await().atMost(LIMIT).pollInterval(Duration.ofMillis(50)).until(() -> auto(http), condition::test);
	}

	/**
	 * Clients on platform threads sending requests back to back until closed.
	 */
	private static final class Clients implements AutoCloseable {

		private final AtomicBoolean running = new AtomicBoolean(true);

		private final AtomicInteger failures = new AtomicInteger();

		private final AtomicInteger ids = new AtomicInteger();

		private final ExecutorService threads;

		private final List<Future<?>> clients = new ArrayList<>();

		Clients(int count, Request request) {
			this.threads = Executors.newFixedThreadPool(count);
			for (int i = 0; i < count; i++) {
				this.clients.add(this.threads.submit(() -> {
					while (this.running.get()) {
						if (request.send(this.ids.incrementAndGet()).statusCode() != 200) {
							this.failures.incrementAndGet();
						}
					}
				}));
			}
		}

		int failures() {
			return this.failures.get();
		}

		@Override
		public void close() throws Exception {
			this.running.set(false);
			for (Future<?> client : this.clients) {
				client.get(30, TimeUnit.SECONDS);
			}
			this.threads.shutdown();
		}

	}

	@FunctionalInterface
	private interface Request {

		HttpResponse<String> send(int id);

	}

}
