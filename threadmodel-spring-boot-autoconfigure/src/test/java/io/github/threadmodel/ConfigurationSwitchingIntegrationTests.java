package io.github.threadmodel;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import io.github.threadmodel.executor.ThreadModel;
import io.github.threadmodel.testapp.Http;
import io.github.threadmodel.testapp.LaneController;
import io.github.threadmodel.testapp.TestServers;
import io.github.threadmodel.testapp.ThreadController;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Switching by configuration: {@code app.threads.*} changed on a running server through
 * spring-cloud-context's {@code POST /actuator/env} and {@code POST /actuator/refresh},
 * which publish the {@code EnvironmentChangeEvent} a Config Server refresh, Spring Cloud
 * Bus and a Kubernetes ConfigMap reload publish too.
 */
@ExtendWith(OutputCaptureExtension.class)
class ConfigurationSwitchingIntegrationTests {

	private static final String[] WRITABLE_ENVIRONMENT = {
			"management.endpoints.web.exposure.include=threadmodel,env,refresh",
			"management.endpoint.env.post.enabled=true",
			// spring-cloud-context 5 refuses every key without it; 4.3 has no such check
			"management.endpoint.env.post.valid-keys-regex=app[.]threads[.].*",
			"management.endpoint.threadmodel.access=unrestricted" };

	@ParameterizedTest(name = "{0}")
	@EnumSource(TestServers.class)
	void switchesToVirtualAndBackWhileRequestsFlowWithNoneFailed(TestServers server, CapturedOutput output)
			throws Exception {
		try (ConfigurableApplicationContext context = start(server, "app.threads.model=platform",
				"app.threads.platform.max-threads=4")) {
			Http http = new Http(context);
			EchoClients clients = new EchoClients(http, 8);
			try (clients) {
				for (int i = 0; i < 3; i++) {
					for (ThreadModel model : List.of(ThreadModel.VIRTUAL, ThreadModel.PLATFORM)) {
						clients.awaitMore(20);
						configure(http, "app.threads.model", model.id());
						// a new connection: a kept-alive one may be served in the task of its last request
						assertThat(http.getOnNewConnection("/thread")).startsWith("request-" + model.id() + "-");
						Map<String, Object> endpoint = http.threadModel();
						assertThat(endpoint).containsEntry("model", model.id())
							.containsEntry("modelSource", "configuration");
						assertThat(switches(endpoint).get(0)).containsEntry("source", "configuration")
							.containsEntry("requestedBy", "configuration: app.threads.model=" + model.id());
					}
				}
				clients.awaitMore(20);
			}
			assertThat(clients.failures).isEmpty();
			Map<String, Integer> served = context.getBean(ThreadController.class).served();
			assertThat(served).hasSize(clients.ids.get());
			assertThat(served.values()).containsOnly(1);
			// one line per switch: the refresh that follows each POST /actuator/env switches nothing again
			assertThat(lines(output, "Thread model switched by configuration (app.threads.model=virtual): "
					+ "platform to virtual threads")).hasSize(3);
			assertThat(lines(output, "Thread model switched by configuration (app.threads.model=platform): "
					+ "virtual to platform threads")).hasSize(3);
		}
	}

	@ParameterizedTest(name = "{0}")
	@EnumSource(TestServers.class)
	void appliesNewLimitsAndTheLaterOfAPostAndAConfigurationChangeWins(TestServers server, CapturedOutput output) {
		try (ConfigurableApplicationContext context = start(server, "app.threads.model=platform",
				"app.threads.platform.max-threads=4")) {
			Http http = new Http(context);
			configure(http, "app.threads.platform.max-threads", "6");
			Map<String, Object> endpoint = http.threadModel();
			assertThat(requests(endpoint)).containsEntry("maxPoolSize", 6);
			// the model was not switched: it is still the one app.threads.model chose at startup
			assertThat(endpoint).containsEntry("model", "platform").containsEntry("modelSource", "app.threads.model");
			assertThat(switches(endpoint).get(0)).containsEntry("from", "platform")
				.containsEntry("to", "platform")
				.containsEntry("source", "configuration")
				.containsEntry("requestedBy", "configuration: app.threads.platform.max-threads=6");

			switchByPost(http, "virtual");
			assertThat(http.threadModel()).containsEntry("model", "virtual").containsEntry("modelSource", "endpoint");

			// a limit alone: the model stays the one the POST chose
			configure(http, "app.threads.virtual.max-concurrency", "3");
			endpoint = http.threadModel();
			assertThat(endpoint).containsEntry("model", "virtual").containsEntry("modelSource", "endpoint");
			assertThat(requests(endpoint)).containsEntry("maxConcurrency", 3);
			assertThat(switches(endpoint).get(0)).containsEntry("source", "configuration");

			// the configuration now asks for the model in force: nothing to switch
			configure(http, "app.threads.model", "virtual");
			assertThat(http.threadModel()).containsEntry("modelSource", "endpoint");
			assertThat(output).contains("Thread model stays virtual: the configuration changed "
					+ "(app.threads.model=virtual) to what is in force already");

			configure(http, "app.threads.model", "platform");
			endpoint = http.threadModel();
			assertThat(endpoint).containsEntry("model", "platform").containsEntry("modelSource", "configuration");
			assertThat(requests(endpoint)).containsEntry("maxPoolSize", 6);

			switchByPost(http, "virtual");
			endpoint = http.threadModel();
			assertThat(endpoint).containsEntry("model", "virtual").containsEntry("modelSource", "endpoint");
			assertThat(switches(endpoint)).extracting((change) -> change.get("source"))
				.containsExactly("endpoint", "configuration", "configuration", "endpoint", "configuration");
		}
	}

	@Test
	void refusesAnInvalidValueAndKeepsTheModel(CapturedOutput output) {
		try (ConfigurableApplicationContext context = start(TestServers.TOMCAT, "app.threads.model=platform",
				"app.threads.platform.max-threads=4")) {
			Http http = new Http(context);
			configure(http, "app.threads.model", "green");
			assertThat(output).contains("Thread model stays platform: configuration change refused: Property "
					+ "app.threads.model with value 'green' is invalid: Allowed: platform, virtual or auto");
			configure(http, "app.threads.model", "platform");

			configure(http, "app.threads.platform.max-threads", "0");
			assertThat(output).contains("Thread model stays platform: configuration change refused: Property "
					+ "app.threads.platform.max-threads with value '0' is invalid: Allowed: a whole number of 1 or more");
			configure(http, "app.threads.platform.max-threads", "4");

			configure(http, "app.threads.model", "auto");
			assertThat(output).contains("Thread model stays platform: the configuration changed (app.threads.model=auto), "
					+ "but auto runs only when the application started with app.threads.model=auto");
			configure(http, "app.threads.model", "platform");

			configure(http, "app.threads.platform.queue-capacity", "5");
			assertThat(output).contains("Thread model: app.threads.platform.queue-capacity changed while the "
					+ "application runs, but is read at startup only");

			Map<String, Object> endpoint = http.threadModel();
			assertThat(endpoint).containsEntry("model", "platform").containsEntry("modelSource", "app.threads.model");
			assertThat(switches(endpoint)).isEmpty();
			assertThat(requests(endpoint)).containsEntry("maxPoolSize", 4);
		}
	}

	@Test
	void switchesNothingWhenSwitchingIsDisabled(CapturedOutput output) {
		try (ConfigurableApplicationContext context = start(TestServers.TOMCAT, "app.threads.model=platform",
				"app.threads.switching.enabled=false")) {
			Http http = new Http(context);
			configure(http, "app.threads.model", "virtual");
			assertThat(output).contains("Thread model stays platform: the configuration changed "
					+ "(app.threads.model=virtual), but switching is disabled by app.threads.switching.enabled=false");
			Map<String, Object> endpoint = http.threadModel();
			assertThat(endpoint).containsEntry("model", "platform");
			assertThat(switches(endpoint)).isEmpty();
		}
	}

	@Test
	@SuppressWarnings("unchecked")
	void aFixedModelPausesAutoAndAutoResumesIt(CapturedOutput output) {
		try (ConfigurableApplicationContext context = start(TestServers.TOMCAT, "app.threads.model=auto")) {
			Http http = new Http(context);
			configure(http, "app.threads.model", "platform");
			Map<String, Object> endpoint = http.threadModel();
			assertThat(endpoint).containsEntry("model", "platform").containsEntry("modelSource", "configuration");
			assertThat((Map<String, Object>) endpoint.get("auto")).containsEntry("active", false)
				.containsEntry("pausedBy", "configuration: app.threads.model=platform");

			configure(http, "app.threads.model", "auto");
			assertThat((Map<String, Object>) http.threadModel().get("auto")).containsEntry("active", true);
			assertThat(output).contains("Thread model auto resumed by configuration (app.threads.model=auto)");
		}
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("io.github.threadmodel.LanesIntegrationTests#servers")
	void aLaneSwitchesByConfigurationAlone(TestServers server, CapturedOutput output) {
		try (ConfigurableApplicationContext context = start(server, "app.threads.model=platform",
				"spring.main.sources=" + LaneController.class.getName(), "app.threads.lanes.cpu.model=platform",
				"app.threads.lanes.io.model=virtual")) {
			Http http = new Http(context);
			configure(http, "app.threads.lanes.cpu.model", "virtual");
			assertThat(http.getOnNewConnection("/lane/report/x")).startsWith("lane-cpu-virtual-");
			assertThat(http.getOnNewConnection("/thread")).startsWith("request-platform-");
			Map<String, Object> endpoint = http.threadModel();
			assertThat(endpoint).containsEntry("model", "platform");
			assertThat(switches(endpoint)).isEmpty();
			Map<String, Object> cpu = lanes(endpoint).get(0);
			assertThat(cpu).containsEntry("name", "cpu").containsEntry("model", "virtual");
			assertThat(switches(cpu).get(0)).containsEntry("source", "configuration")
				.containsEntry("requestedBy", "configuration: app.threads.lanes.cpu.model=virtual");
			assertThat(output).contains("Lane cpu switched by configuration (app.threads.lanes.cpu.model=virtual)")
				.doesNotContain("read at startup only");
			configure(http, "app.threads.lanes.io.model", "auto");
			assertThat(output).contains("configuration change refused")
				.contains("app.threads.lanes.io.model with value 'auto' is invalid: Allowed: platform or virtual.");
			assertThat(lanes(http.threadModel()).get(1)).containsEntry("model", "virtual");
		}
	}

	@SuppressWarnings("unchecked")
	private static List<Map<String, Object>> lanes(Map<String, Object> endpoint) {
		return (List<Map<String, Object>>) endpoint.get("lanes");
	}

	private static ConfigurableApplicationContext start(TestServers server, String... properties) {
		return server.start(Stream.concat(Stream.of(WRITABLE_ENVIRONMENT), Stream.of(properties))
			.toArray(String[]::new));
	}

	/**
	 * Changes a property as an operator would: {@code POST /actuator/env}, then
	 * {@code POST /actuator/refresh}.
	 */
	private static void configure(Http http, String name, String value) {
		HttpResponse<String> written = http.postActuator("env",
				"{\"name\":\"%s\",\"value\":\"%s\"}".formatted(name, value));
		assertThat(written.statusCode()).as(written.body()).isEqualTo(200);
		HttpResponse<String> refreshed = http.postActuator("refresh", "{}");
		assertThat(refreshed.statusCode()).as(refreshed.body()).isEqualTo(200);
	}

	private static void switchByPost(Http http, String model) {
		HttpResponse<String> switched = http.postThreadModel("{\"model\":\"" + model + "\"}");
		assertThat(switched.statusCode()).as(switched.body()).isEqualTo(200);
	}

	@SuppressWarnings("unchecked")
	private static List<Map<String, Object>> switches(Map<String, Object> endpoint) {
		return (List<Map<String, Object>>) endpoint.get("switches");
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> requests(Map<String, Object> endpoint) {
		return (Map<String, Object>) endpoint.get("requests");
	}

	private static List<String> lines(CapturedOutput output, String text) {
		return output.getOut().lines().filter((line) -> line.contains(text)).toList();
	}

	/**
	 * Clients sending {@code /echo} requests back to back, some slow, until closed; a
	 * request fails when its answer is not 200 with its own id.
	 */
	private static final class EchoClients implements AutoCloseable {

		private final AtomicBoolean running = new AtomicBoolean(true);

		private final AtomicInteger ids = new AtomicInteger();

		private final Queue<String> failures = new ConcurrentLinkedQueue<>();

		private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();

		private final List<Future<?>> clients = new ArrayList<>();

		EchoClients(Http http, int count) {
			for (int i = 0; i < count; i++) {
				this.clients.add(this.threads.submit(() -> {
					while (this.running.get()) {
						int id = this.ids.incrementAndGet();
						long sleepMs = (id % 3 == 0) ? 150 : 0;
						HttpResponse<String> response = http.send("/echo?id=" + id + "&sleepMs=" + sleepMs);
						if (response.statusCode() != 200 || !response.body().equals(String.valueOf(id))) {
							this.failures.add(id + " -> " + response.statusCode() + " " + response.body());
						}
					}
				}));
			}
		}

		/**
		 * Waits until the clients have sent this many more requests.
		 */
		void awaitMore(int requests) {
			int target = this.ids.get() + requests;
			await().atMost(Duration.ofSeconds(30)).until(() -> this.ids.get() >= target);
		}

		@Override
		public void close() throws Exception {
			this.running.set(false);
			for (Future<?> client : this.clients) {
				client.get(30, TimeUnit.SECONDS);
			}
			this.threads.close();
		}

	}

}
