package io.github.threadmodel;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.threadmodel.testapp.ForkedServer;
import io.github.threadmodel.testapp.Http;
import io.github.threadmodel.testapp.RawHttp;
import io.github.threadmodel.testapp.TestServers;
import io.github.threadmodel.testapp.ThreadController;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The health probes' own lane, on the servlet servers, whose adapters tell a probe from its
 * request line (Tomcat, Jetty), or from the request it parsed (Undertow on Spring Boot
 * 3.5), before the request executor sees it: probes answer within the kubelet's default
 * 1 s timeout behind a deep queue on a pod's heap and while CPU-bound requests hold every
 * carrier of the virtual threads; nothing but a probe runs on the lane. On a management port
 * of its own, probes answer under that load too, with Spring Boot's virtual threads on.
 */
class ProbeLaneIntegrationTests {

	/** The kubelet's default {@code timeoutSeconds}. */
	private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(1);

	private static final String LIVENESS = "/actuator/health/liveness";

	private static final ObjectMapper JSON = new ObjectMapper();

	@ParameterizedTest(name = "{0}")
	@MethodSource("serversOnTheLane")
	@SuppressWarnings("unchecked")
	void probesAnswerWhileCpuBoundRequestsHoldEveryCarrier(TestServers server) throws Exception {
		try (ConfigurableApplicationContext context = startOnOnePort(server, "app.threads.model=virtual",
				"app.threads.probes.paths=/thread,/actuator/threadmodel")) {
			int port = new Http(context).port();
			List<Long> probeMillis = whileEveryCarrierComputes(context, (probes) -> {
				// the endpoint, a probe path here, read on the lane while they compute
				int carriers = Runtime.getRuntime().availableProcessors();
				await().until(() -> requests(port, "running") == carriers);
				for (int i = 0; i < 5; i++) {
					probes.add(timedProbe(port, LIVENESS));
				}
				assertThat(RawHttp.body(port, "/thread")).startsWith("probe-").endsWith("virtual=false");
			});
			assertThat(probeMillis).allSatisfy((millis) -> assertThat(millis).isLessThan(PROBE_TIMEOUT.toMillis()));
			// the lane is shown: in the endpoint and with Micrometer's executor meters; it ran
			// the 5 probes and /thread (a thread counts its task once it has answered)
			await().untilAsserted(() -> {
				Map<String, Object> probeLane = probeLane(port);
				assertThat(probeLane).containsEntry("model", "platform").containsEntry("maxThreads", 2);
				assertThat((List<String>) probeLane.get("paths")).contains(LIVENESS, "/thread");
				assertThat(((Number) probeLane.get("completed")).longValue()).isGreaterThanOrEqualTo(6);
			});
			assertThat(new Http(context).metric("executor.completed", "name:threadModelProbeLane"))
				.isGreaterThanOrEqualTo(6);
		}
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("serversOnTheLane")
	void probesOnAManagementPortAnswerWhileCpuBoundRequestsHoldEveryCarrier(TestServers server) throws Exception {
		// Spring Boot's own switch to virtual threads, which its customizers apply to the
		// management server too; the starter's model follows it (virtual)
		try (ConfigurableApplicationContext context = server.start("spring.threads.virtual.enabled=true",
				"management.endpoint.health.probes.enabled=true", "management.endpoints.web.exposure.include=health")) {
			int managementPort = Integer.parseInt(context.getEnvironment().getProperty("local.management.port"));
			List<Long> probeMillis = whileEveryCarrierComputes(context, (probes) -> {
				for (int i = 0; i < 5; i++) {
					probes.add(timedProbe(managementPort, LIVENESS));
					probes.add(timedProbe(managementPort, "/actuator/health/readiness"));
				}
			});
			assertThat(probeMillis).allSatisfy((millis) -> assertThat(millis).isLessThan(PROBE_TIMEOUT.toMillis()));
		}
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("serversOnTheLane")
	void aRequestPipelinedBehindAProbeTakesATurnOfTheRequestLimit(TestServers server) {
		try (ConfigurableApplicationContext context = startOnOnePort(server, "app.threads.model=virtual",
				"app.threads.virtual.max-concurrency=1", "app.threads.virtual.queue-timeout=300ms")) {
			Http http = new Http(context);
			CompletableFuture<?> blocking = http.getAsync("/block");
			await().until(() -> context.getBean(ThreadController.class).blocked() == 1);
			// the probe runs on its lane; /thread, read there after it, waits for the one turn and is refused
			assertThat(RawHttp.pipelined(http.port(), LIVENESS, "/thread")).satisfiesExactly(
					(probe) -> assertThat(probe).startsWith("200 "), (request) -> assertThat(request).startsWith("503 "));
			context.getBean(ThreadController.class).openGate();
			assertThat(blocking).succeedsWithin(Duration.ofSeconds(30));
			// with the turn free, it runs on the request executor's thread, not on the lane
			assertThat(RawHttp.pipelined(http.port(), LIVENESS, "/thread")).satisfiesExactly(
					(probe) -> assertThat(probe).startsWith("200 "),
					(request) -> assertThat(request).startsWith("200 ").doesNotContain("probe-"));
		}
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("serversOnTheLane")
	void probesAnswerBehind2000QueuedRequestsOnAPodHeap(TestServers server) throws Exception {
		try (ForkedServer forked = ForkedServer.start(server,
				List.of("-Xmx256m", "-XX:+ExitOnOutOfMemoryError", "-XX:TieredStopAtLevel=1"), "server.port=0",
				"management.server.port=", "management.endpoint.health.probes.enabled=true",
				"management.endpoints.web.exposure.include=health,threadmodel",
				"app.threads.probes.paths=/actuator/threadmodel", "app.threads.model=virtual",
				"app.threads.virtual.max-concurrency=50")) {
			int port = forked.port();
			ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor();
			List<CompletableFuture<Integer>> queued = new ArrayList<>();
			for (int i = 0; i < 2000; i++) {
				String path = "/echo?id=" + i + "&sleepMs=200";
				queued.add(CompletableFuture.supplyAsync(() -> RawHttp.closing(port, path), clients));
			}
			await().until(() -> queuedOn(port) >= 1000);
			List<Long> probeMillis = new ArrayList<>();
			while (queuedOn(port) >= 200) {
				probeMillis.add(timedProbe(port, LIVENESS));
			}
			assertThat(queued).allSatisfy((request) -> assertThat(request).succeedsWithin(Duration.ofSeconds(60))
				.isEqualTo(200));
			clients.close();
			assertThat(forked.isAlive()).isTrue();
			assertThat(probeMillis).hasSizeGreaterThan(5)
				.allSatisfy((millis) -> assertThat(millis).isLessThan(PROBE_TIMEOUT.toMillis()));
		}
	}

	/** The servers whose adapter sends probes to their lane: the servlet servers. */
	static Stream<TestServers> serversOnTheLane() {
		return Arrays.stream(TestServers.values()).filter((server) -> !server.name().equals("NETTY"));
	}

	private static ConfigurableApplicationContext startOnOnePort(TestServers server, String... properties) {
		List<String> all = new ArrayList<>(List.of("management.server.port=",
				"management.endpoint.health.probes.enabled=true",
				"management.endpoints.web.exposure.include=health,threadmodel,metrics"));
		all.addAll(List.of(properties));
		return server.start(all.toArray(String[]::new));
	}

	/**
	 * Sends probes while one computing request per carrier holds it until the gate opens: a
	 * virtual thread keeps its carrier while it computes (no time slicing), so no other
	 * virtual thread of the server runs meanwhile. Then opens the gate (the server cannot
	 * stop while they hold every carrier) and checks that the computing requests were
	 * answered.
	 * @return each probe's time to answer, in milliseconds, as the probes added them
	 */
	private static List<Long> whileEveryCarrierComputes(ConfigurableApplicationContext context, Probes probes)
			throws Exception {
		int port = new Http(context).port();
		ThreadController controller = context.getBean(ThreadController.class);
		int carriers = Runtime.getRuntime().availableProcessors();
		ExecutorService clients = Executors.newFixedThreadPool(carriers);
		List<CompletableFuture<Integer>> computing = new ArrayList<>();
		for (int i = 0; i < carriers; i++) {
			computing.add(CompletableFuture.supplyAsync(() -> RawHttp.closing(port, "/spin?gated=true"), clients));
		}
		List<Long> probeMillis = new ArrayList<>();
		try {
			await().until(() -> controller.spinning() == carriers);
			probes.send(probeMillis);
		}
		finally {
			controller.openGate();
		}
		assertThat(computing).allSatisfy((request) -> assertThat(request).succeedsWithin(Duration.ofSeconds(30))
			.isEqualTo(200));
		clients.shutdown();
		return probeMillis;
	}

	/** Probes to send, each adding its time to answer. */
	@FunctionalInterface
	private interface Probes {

		void send(List<Long> probeMillis) throws Exception;

	}

	/** Sends the probe on a new connection, as the kubelet does; its time to answer 200. */
	private static long timedProbe(int port, String path) throws Exception {
		long start = System.nanoTime();
		int status = CompletableFuture.supplyAsync(() -> RawHttp.closing(port, path)).get(30, TimeUnit.SECONDS);
		long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
		assertThat(status).isEqualTo(200);
		return millis;
	}

	/** The requests waiting for a turn, read on the lane (the endpoint is a probe path here). */
	private static long queuedOn(int port) throws Exception {
		return requests(port, "queued");
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> probeLane(int port) throws Exception {
		return (Map<String, Object>) JSON.readValue(RawHttp.body(port, "/actuator/threadmodel"), Map.class)
			.get("probeLane");
	}

	/**
	 * A figure of the endpoint's requests, read on a connection of its own, as a probe.
	 */
	@SuppressWarnings("unchecked")
	private static long requests(int port, String figure) throws Exception {
		Map<String, Object> endpoint = JSON.readValue(RawHttp.body(port, "/actuator/threadmodel"), Map.class);
		return ((Number) ((Map<String, Object>) endpoint.get("requests")).get(figure)).longValue();
	}

}
