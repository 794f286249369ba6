package io.github.threadmodel;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.github.threadmodel.testapp.Http;
import io.github.threadmodel.testapp.LaneController;
import io.github.threadmodel.testapp.TestServers;
import io.github.threadmodel.testapp.ThreadController;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.NestedExceptionUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;
import static org.awaitility.Awaitility.await;

/**
 * Lanes on every server, WebFlux on Reactor Netty included: a route in a lane, by path or
 * by annotation, runs on the lane's threads under the lane's limits, and every other route
 * as before. On WebFlux a lane runs blocking controller methods; a reactive one stays on
 * the event loop.
 */
@ExtendWith(OutputCaptureExtension.class)
class LanesIntegrationTests {

	private static final String LANE_ROUTES = "spring.main.sources=" + LaneController.class.getName();

	@ParameterizedTest(name = "{0}")
	@MethodSource("servers")
	@SuppressWarnings("unchecked")
	void aRouteInALaneRunsOnTheLanesThreads(TestServers server, CapturedOutput output) {
		try (ConfigurableApplicationContext context = server.start("app.threads.model=virtual", LANE_ROUTES,
				"app.threads.lanes.cpu.model=platform", "app.threads.lanes.cpu.platform.max-threads=2",
				"app.threads.lanes.io.model=virtual", "app.threads.lanes.io.paths=/lane/moved,/echo,/thread/reactive",
				"management.endpoints.web.exposure.include=threadmodel,metrics,health",
				"management.endpoint.health.show-details=always")) {
			Http http = new Http(context);
			assertThat(output).contains("; lane cpu on platform threads, max-threads 2, min-threads 2")
				.contains("; lane io on virtual threads, adaptive limit 20 to 10000");
			assertThat(http.get("/lane/report/monthly")).startsWith("lane-cpu-platform-").endsWith("virtual=false");
			assertThat(http.get("/lane/io")).startsWith("lane-io-virtual-").endsWith("virtual=true");
			// the path of the io lane wins over the cpu lane of the class
			assertThat(http.get("/lane/moved")).startsWith("lane-io-virtual-");
			assertThat(http.get("/echo?id=7")).isEqualTo("7");
			// a more specific route in no lane, and a route outside the lanes' paths
			assertThat(http.get("/lane/report/summary")).doesNotStartWith("lane-").endsWith("virtual=true");
			assertThat(http.get("/thread")).doesNotStartWith("lane-").endsWith("virtual=true");
			if (server == TestServers.NETTY) {
				assertThat(http.get("/thread/reactive")).startsWith("reactor-http-");
			}
			else {
				assertThat(http.get("/thread/reactive")).startsWith("lane-io-virtual-");
			}
			assertThat(lanes(http)).satisfiesExactly((cpu) -> {
				assertThat(cpu).containsEntry("name", "cpu").containsEntry("model", "platform")
					.containsEntry("paths", List.of())
					.containsEntry("handlers", List.of("LaneController#moved", "LaneController#report"));
				assertThat(executor(cpu)).containsEntry("submitted", 1).containsEntry("maxPoolSize", 2);
			}, (io) -> {
				assertThat(io).containsEntry("name", "io").containsEntry("model", "virtual")
					.containsEntry("paths", List.of("/lane/moved", "/echo", "/thread/reactive"))
					.containsEntry("handlers", List.of("LaneController#io"));
				assertThat(executor(io)).containsEntry("submitted", (server == TestServers.NETTY) ? 3 : 4)
					.containsEntry("rejected", 0);
			});
			// Micrometer's executor meters, per lane
			assertThat(http.metric("executor.completed", "name:lane-cpu")).isEqualTo(1);
			assertThat(http.metric("executor.pool.max", "name:lane-cpu")).isEqualTo(2);
			assertThat(http.metric("executor.completed", "name:lane-io")).isEqualTo((server == TestServers.NETTY) ? 3 : 4);
			// the threadModel health contributor lists the lanes, and the probes' lane on a servlet server
			Map<String, Object> details = (Map<String, Object>) http.managementJson("/actuator/health/threadModel")
				.get("details");
			Map<String, Map<String, Object>> health = (Map<String, Map<String, Object>>) details.get("lanes");
			assertThat(health).containsOnlyKeys("cpu", "io");
			if (server == TestServers.NETTY) {
				assertThat(details).doesNotContainKey("probeLane");
			}
			else {
				assertThat(details).containsEntry("probeLane",
						Map.of("model", "platform", "limit", 2, "inFlight", 0, "queued", 0));
			}
			assertThat(health.get("cpu")).isEqualTo(Map.of("model", "platform", "limit", 2, "inFlight", 0, "queued", 0));
			// the io lane's adaptive limit, which moves with the load
			assertThat(health.get("io")).containsEntry("model", "virtual").containsKey("limit")
				.containsEntry("inFlight", 0).containsEntry("queued", 0);
			// beside the lanes, the health probes' own lane, on a servlet server only
			Object probeLane = http.managementJson("/actuator/threadmodel").get("probeLane");
			if (server == TestServers.NETTY) {
				assertThat(probeLane).isNull();
			}
			else {
				assertThat((Map<String, Object>) probeLane).containsEntry("model", "platform")
					.containsEntry("maxThreads", 2);
			}
		}
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("servers")
	void aFullLaneAnswers503WithRetryAfterWhileOtherRoutesRun(TestServers server) {
		try (ConfigurableApplicationContext context = server.start("app.threads.model=virtual",
				"app.threads.lanes.slow.paths=/block", "app.threads.lanes.slow.platform.max-threads=1",
				"app.threads.lanes.slow.platform.queue-capacity=0")) {
			Http http = new Http(context);
			ThreadController threads = context.getBean(ThreadController.class);
			CompletableFuture<HttpResponse<String>> blocking = http.getAsync("/block");
			await().until(() -> threads.blocked() == 1);
			HttpResponse<String> refused = http.send("/block");
			assertThat(refused.statusCode()).isEqualTo(503);
			assertThat(refused.headers().firstValue("Retry-After")).hasValue("1");
			assertThat(http.get("/thread")).endsWith("virtual=true");
			threads.openGate();
			assertThat(blocking).succeedsWithin(Duration.ofSeconds(30))
				.satisfies((response) -> assertThat(response.body()).isEqualTo("released"));
			assertThat(executor(lanes(http).get(0))).containsEntry("submitted", 2).containsEntry("rejected", 1);
		}
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("servers")
	void aLaneRequestDoesNotWaitForTheRequestLimit(TestServers server) {
		try (ConfigurableApplicationContext context = server.start("app.threads.model=virtual",
				"app.threads.virtual.max-concurrency=1", "app.threads.virtual.queue-timeout=300ms", LANE_ROUTES,
				"app.threads.lanes.cpu.model=platform", "app.threads.lanes.io.model=virtual")) {
			Http http = new Http(context);
			ThreadController threads = context.getBean(ThreadController.class);
			CompletableFuture<HttpResponse<String>> blocking = http.getAsync("/block");
			await().until(() -> threads.blocked() == 1);
			// the request limit's one turn is taken: the lane's routes run all the same
			assertThat(http.get("/lane/report/daily")).startsWith("lane-cpu-platform-");
			assertThat(http.get("/lane/io")).startsWith("lane-io-virtual-");
			assertThat(http.send("/thread").statusCode()).isEqualTo(503);
			threads.openGate();
			assertThat(blocking).succeedsWithin(Duration.ofSeconds(30));
		}
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("servers")
	void aLaneSwitchesUnderLoadAndTheServerStaysAsItWas(TestServers server) throws Exception {
		try (ConfigurableApplicationContext context = server.start("app.threads.model=platform", LANE_ROUTES,
				"management.endpoint.threadmodel.access=unrestricted", "app.threads.lanes.cpu.model=platform",
				"app.threads.lanes.io.model=virtual")) {
			Http http = new Http(context);
			assertThat(http.get("/lane/report/before")).startsWith("lane-cpu-platform-");
			ExecutorService clients = Executors.newFixedThreadPool(4);
			List<Future<List<Integer>>> loops = new ArrayList<>();
			for (int i = 0; i < 4; i++) {
				loops.add(clients.submit(() -> {
					List<Integer> statuses = new ArrayList<>();
					for (int n = 0; n < 100; n++) {
						statuses.add(http.send("/lane/report/" + n).statusCode());
					}
					return statuses;
				}));
			}
			HttpResponse<String> switched = http.postThreadModel(Map.of("lane", "cpu", "model", "virtual"));
			assertThat(switched.statusCode()).as(switched.body()).isEqualTo(200);
			for (Future<List<Integer>> loop : loops) {
				assertThat(loop.get(60, TimeUnit.SECONDS)).hasSize(100).containsOnly(200);
			}
			clients.shutdown();
			assertThat(http.get("/lane/report/after")).startsWith("lane-cpu-virtual-");
			assertThat(http.get("/thread")).endsWith("virtual=false");
			Map<String, Object> threadModel = http.threadModel();
			assertThat(threadModel).containsEntry("model", "platform").containsEntry("switches", List.of());
			assertThat(lanes(http).get(0)).containsEntry("model", "virtual")
				.extractingByKey("switches", InstanceOfAssertFactories.LIST)
				.singleElement()
				.satisfies((change) -> assertThat(change).isInstanceOf(Map.class)
					.hasFieldOrPropertyWithValue("from", "platform")
					.hasFieldOrPropertyWithValue("to", "virtual")
					.hasFieldOrPropertyWithValue("source", "endpoint"));
			HttpResponse<String> auto = http.postThreadModel(Map.of("lane", "cpu", "model", "auto"));
			assertThat(auto.statusCode()).isEqualTo(400);
			assertThat(auto.body()).contains("A lane runs on platform or virtual threads, not auto");
			HttpResponse<String> unknown = http.postThreadModel(Map.of("lane", "gpu", "model", "virtual"));
			assertThat(unknown.statusCode()).isEqualTo(400);
			assertThat(unknown.body()).contains("No lane 'gpu'; lanes: cpu, io");
		}
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("servers")
	void anAnnotationThatNamesNoLaneStopsStartup(TestServers server, CapturedOutput output) {
		assertThatException()
			.isThrownBy(() -> server.start(LANE_ROUTES, "app.threads.lanes.cpu.model=platform").close())
			.satisfies((ex) -> assertThat(NestedExceptionUtils.getMostSpecificCause(ex))
				.hasMessage("@ThreadLane(\"io\") on LaneController#io names no lane of app.threads.lanes [cpu]"));
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("@ThreadLane(\"io\") on LaneController#io names a lane that is not configured. "
					+ "Configured lanes: cpu.")
			.contains("Configure the lane (app.threads.lanes.io.model=platform");
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("servers")
	void aPathThatIsNoPathPatternStopsStartup(TestServers server, CapturedOutput output) {
		assertThatException().isThrownBy(() -> server.start("app.threads.lanes.cpu.paths=/reports,reports/**").close());
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("Invalid value 'reports/**' for configuration property 'app.threads.lanes.cpu.paths[1]'")
			.contains("Allowed: a path pattern that starts with '/', for example /reports/**.");
		assertThatException().isThrownBy(() -> server.start("app.threads.lanes.cpu.paths=/reports/**/pdf").close());
		assertThat(output)
			.contains("Invalid value '/reports/**/pdf' for configuration property 'app.threads.lanes.cpu.paths[0]'")
			.contains("Allowed: a Spring path pattern, for example /reports/**; this one: ");
	}

	static Stream<TestServers> servers() {
		return Arrays.stream(TestServers.values());
	}

	@SuppressWarnings("unchecked")
	private static List<Map<String, Object>> lanes(Http http) {
		return new ArrayList<>((List<Map<String, Object>>) http.threadModel().get("lanes"));
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> executor(Map<String, Object> lane) {
		return (Map<String, Object>) lane.get("executor");
	}

}
