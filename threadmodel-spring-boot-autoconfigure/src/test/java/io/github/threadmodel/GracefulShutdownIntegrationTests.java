package io.github.threadmodel;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
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
 * within the shutdown timeout is answered 503, never cut.
 */
class GracefulShutdownIntegrationTests {

	private static final int LIMIT = 20;

	private static final int IN_FLIGHT = 100;

	private static final String[] LIMITS = { "app.threads.platform.max-threads=" + LIMIT,
			"app.threads.platform.min-threads=" + LIMIT, "app.threads.virtual.max-concurrency=" + LIMIT,
			"server.shutdown=graceful", "management.endpoint.threadmodel.access=unrestricted" };

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
		// 100 requests of 600 ms on 20 threads take 3 s; the drain has 1 s
		ConfigurableApplicationContext context = start(server, model, "spring.lifecycle.timeout-per-shutdown-phase=1s");
		List<CompletableFuture<HttpResponse<String>>> responses = sendAndAwaitQueue(new Http(context), 600);
		CompletableFuture<Void> closed = closeThenOpenGate(context);
		List<String> outcomes = new ArrayList<>();
		for (int i = 0; i < IN_FLIGHT; i++) {
			try {
				HttpResponse<String> response = responses.get(i).get(60, TimeUnit.SECONDS);
				boolean whole = response.statusCode() != 200 || response.body().equals(String.valueOf(i));
				outcomes.add(response.statusCode() + (whole ? "" : " " + response.body()));
			}
			catch (ExecutionException ex) {
				outcomes.add(i + " " + ex.getCause()); // cut
			}
		}
		assertThat(outcomes).as(outcomes::toString).containsOnly("200", "503");
		assertThat(outcomes).as(outcomes::toString).contains("503");
		assertThat(outcomes.stream().filter("200"::equals).count()).as(outcomes::toString)
			.isGreaterThanOrEqualTo(LIMIT);
		closed.get(60, TimeUnit.SECONDS);
	}

	static Stream<Arguments> serversAndModelsWithoutSwitch() {
		return serversAndModels().filter((arguments) -> arguments.get()[2] == null);
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
		http.get("/thread");
		List<CompletableFuture<HttpResponse<String>>> responses = new ArrayList<>();
		for (int i = 0; i < IN_FLIGHT; i++) {
			responses.add(http.getAsync("/echo?gated=true&id=" + i + "&sleepMs=" + sleepMs, "Accept", "text/plain"));
		}
		await().atMost(30, TimeUnit.SECONDS)
			.pollInterval(10, TimeUnit.MILLISECONDS)
			.until(() -> requests(http), (requests) -> number(requests, "running") == LIMIT
					&& number(requests, "queued") == IN_FLIGHT - LIMIT);
		return responses;
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

	private static long number(Map<String, Object> map, String key) {
		return ((Number) map.get(key)).longValue();
	}

}
