package io.github.threadmodel;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

import io.github.threadmodel.internal.servers.QueuedRequestsDrain;
import io.github.threadmodel.testapp.Http;
import io.github.threadmodel.testapp.TestServers;
import io.github.threadmodel.testapp.ThreadController;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.event.ContextClosedEvent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Graceful shutdown of each real server with 100 requests in flight, 20 running and 80
 * waiting for a thread: every accepted request is answered with its whole body, the
 * waiting ones included, in both models and right after a switch; what cannot finish
 * within the shutdown timeout is answered 503, never cut. The same for the requests that
 * wait in a lane's queue.
 */
class GracefulShutdownIntegrationTests {

	private static final int LIMIT = 20;

	private static final int IN_FLIGHT = 100;

	private static final String[] LIMITS = { "app.threads.platform.max-threads=" + LIMIT,
			"app.threads.platform.min-threads=" + LIMIT, "app.threads.virtual.max-concurrency=" + LIMIT,
			"server.shutdown=graceful", "management.endpoint.threadmodel.access=unrestricted" };

	private static final int LANE_THREADS = 5;

	private static final int IN_LANE = LIMIT;

	static Stream<Arguments> serversAndModels() {
		return Arrays.stream(TestServers.values())
			.flatMap((server) -> Stream.of(Arguments.of(server, "platform", null), Arguments.of(server, "virtual", null),
					Arguments.of(server, "virtual", "platform")));
	}

	@ParameterizedTest(name = "{0} {1} (switched to {2})")
	@MethodSource("serversAndModels")
	void queuedRequestsAreFinished(TestServers server, String model, String switchTo) throws Exception {
		ConfigurableApplicationContext context = start(server, model, "spring.lifecycle.timeout-per-shutdown-phase=30s");
		Http http = new Http(context);
		if (switchTo != null) {
			HttpResponse<String> switched = http.postThreadModel("{\"model\":\"" + switchTo + "\"}");
			assertThat(switched.statusCode()).as(switched.body()).isEqualTo(200);
		}
		List<CompletableFuture<HttpResponse<String>>> responses = sendAndAwaitQueue(http, 100);
		CompletableFuture<Void> closed = closeThenOpenGate(context);
		for (int i = 0; i < IN_FLIGHT; i++) {
			HttpResponse<String> response = responses.get(i).get(60, TimeUnit.SECONDS);
			assertThat(response.statusCode()).as("request %d: %s", i, response.body()).isEqualTo(200);
			assertThat(response.body()).isEqualTo(String.valueOf(i));
		}
		closed.get(60, TimeUnit.SECONDS);
	}

	@ParameterizedTest(name = "{0} {1}")
	@MethodSource("serversAndModelsWithoutSwitch")
	void whatCannotFinishInTimeIsAnswered503(TestServers server, String model) throws Exception {
		// 100 requests of 600 ms on 20 threads take 3 s; the drain has 2 s. The last ones to
		// start do at 1.8 s and end at 2.4 s, with 1.6 s of Spring Boot's phase to spare: a
		// busy machine's stall must not end that phase, and cut them, before they are done.
		ConfigurableApplicationContext context = start(server, model, "spring.lifecycle.timeout-per-shutdown-phase=2s");
		List<CompletableFuture<HttpResponse<String>>> responses = sendAndAwaitQueue(new Http(context), 600);
		CompletableFuture<Void> closed = closeThenOpenGate(context);
		List<String> outcomes = outcomes(responses);
		assertThat(outcomes).as(outcomes::toString).containsOnly("200", "503");
		assertThat(outcomes).as(outcomes::toString).contains("503");
		assertThat(outcomes.stream().filter("200"::equals).count()).as(outcomes::toString)
			.isGreaterThanOrEqualTo(LIMIT);
		closed.get(60, TimeUnit.SECONDS);
	}

	static Stream<Arguments> serversAndModelsWithoutSwitch() {
		return serversAndModels().filter((arguments) -> arguments.get()[2] == null);
	}

	@ParameterizedTest(name = "{0} {1}, shutdown timeout {2}")
	@MethodSource("serversModelsAndTimeouts")
	void aLanesQueuedRequestsAreFinishedOrAnswered503(TestServers server, String model, String timeout)
			throws Exception {
		// 20 requests of 600 ms on the lane's 5 threads take 2.4 s; with a timeout of 1.5 s,
		// the last 5 are refused and the 5 before them end at 1.8 s, 1.2 s within the phase
		ConfigurableApplicationContext context = server.start(Stream
			.concat(Stream.of("app.threads.model=" + model, "spring.lifecycle.timeout-per-shutdown-phase=" + timeout,
					"app.threads.lanes.slow.paths=/echo", "app.threads.lanes.slow.platform.max-threads=" + LANE_THREADS),
					Arrays.stream(LIMITS))
			.toArray(String[]::new));
		Http http = new Http(context);
		List<CompletableFuture<HttpResponse<String>>> responses = send(http, IN_LANE, 600);
		await().atMost(30, TimeUnit.SECONDS)
			.pollInterval(10, TimeUnit.MILLISECONDS)
			.until(() -> laneExecutor(http), (lane) -> number(lane, "running") == LANE_THREADS
					&& number(lane, "queued") == IN_LANE - LANE_THREADS);
		CompletableFuture<Void> closed = closeThenOpenGate(context);
		List<String> outcomes = outcomes(responses);
		if (timeout.equals("30s")) {
			assertThat(outcomes).as(outcomes::toString).containsOnly("200");
		}
		else {
			assertThat(outcomes).as(outcomes::toString).containsOnly("200", "503").contains("200", "503");
		}
		closed.get(60, TimeUnit.SECONDS);
	}

	static Stream<Arguments> serversModelsAndTimeouts() {
		return serversAndModelsWithoutSwitch().flatMap((arguments) -> Stream.of("30s", "1500ms").map((timeout) -> Arguments.of(arguments.get()[0],
					arguments.get()[1], timeout)));
	}

	@Test
	void queuedRequestsRunJustBeforeSpringBootsGracefulShutdown() {
		try (ConfigurableApplicationContext context = TestServers.TOMCAT.start()) {
			int gracefulShutdown = context.getBean("webServerGracefulShutdown", SmartLifecycle.class).getPhase();
			assertThat(context.getBean(QueuedRequestsDrain.class).getPhase()).isEqualTo(gracefulShutdown + 1);
		}
	}

	private static ConfigurableApplicationContext start(TestServers server, String model, String timeout) {
		String[] properties = Stream.concat(Stream.of("app.threads.model=" + model, timeout), Arrays.stream(LIMITS))
			.toArray(String[]::new);
		return server.start(properties);
	}

	/**
	 * Sends {@link #IN_FLIGHT} requests, each on a connection of its own, that wait for the
	 * gate, then work for the given time and answer their number, and waits until
	 * {@link #LIMIT} of them run and the others wait for a thread.
	 */
	private static List<CompletableFuture<HttpResponse<String>>> sendAndAwaitQueue(Http http, long sleepMs) {
		List<CompletableFuture<HttpResponse<String>>> responses = send(http, IN_FLIGHT, sleepMs);
		await().atMost(30, TimeUnit.SECONDS)
			.pollInterval(10, TimeUnit.MILLISECONDS)
			.until(() -> requests(http), (requests) -> number(requests, "running") == LIMIT
					&& number(requests, "queued") == IN_FLIGHT - LIMIT);
		return responses;
	}

	/**
	 * Sends requests, each on a connection of its own, that wait for the gate, then work for
	 * the given time and answer their number.
	 */
	private static List<CompletableFuture<HttpResponse<String>>> send(Http http, int count, long sleepMs) {
		http.get("/thread");
		List<CompletableFuture<HttpResponse<String>>> responses = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			responses.add(http.getAsync("/echo?gated=true&id=" + i + "&sleepMs=" + sleepMs, "Accept", "text/plain"));
		}
		return responses;
	}

	/**
	 * Each response's status, followed by its body when a 200 does not carry the request's
	 * whole number, or the request's number and the error when its connection was cut.
	 */
	private static List<String> outcomes(List<CompletableFuture<HttpResponse<String>>> responses)
			throws InterruptedException, TimeoutException {
		List<String> outcomes = new ArrayList<>();
		for (int i = 0; i < responses.size(); i++) {
			try {
				HttpResponse<String> response = responses.get(i).get(60, TimeUnit.SECONDS);
				boolean whole = response.statusCode() != 200 || response.body().equals(String.valueOf(i));
				outcomes.add(response.statusCode() + (whole ? "" : " " + response.body()));
			}
			catch (ExecutionException ex) {
				outcomes.add(i + " " + ex.getCause()); // cut
			}
		}
		return outcomes;
	}

	/**
	 * Closes the context in the background and opens the gate once closing has begun (the
	 * event comes before the web server's graceful shutdown), so that every request is
	 * still in flight when the shutdown starts, and does its work during it.
	 */
	private static CompletableFuture<Void> closeThenOpenGate(ConfigurableApplicationContext context) {
		ThreadController controller = context.getBean(ThreadController.class);
		ApplicationListener<ContextClosedEvent> openGate = (event) -> controller.openGate();
		context.addApplicationListener(openGate);
		return CompletableFuture.runAsync(context::close);
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> requests(Http http) {
		return (Map<String, Object>) http.threadModel().get("requests");
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> laneExecutor(Http http) {
		List<Map<String, Object>> lanes = (List<Map<String, Object>>) http.threadModel().get("lanes");
		return (Map<String, Object>) lanes.get(0).get("executor");
	}

	private static long number(Map<String, Object> map, String key) {
		return ((Number) map.get(key)).longValue();
	}

}
