package io.github.threadmodel;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.github.threadmodel.testapp.Http;
import io.github.threadmodel.testapp.RawHttp;
import io.github.threadmodel.testapp.TestServers;
import io.github.threadmodel.testapp.ThreadController;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The endpoint's {@code requests} counts HTTP requests as the clients sent them, on every
 * real server: requests on one kept-alive connection and requests that each close their
 * connection count once each, whatever number of tasks the server handed the executor for
 * them; and {@code rejected} is the number of 503 answers the clients received, also when
 * clients close kept-alive connections while every thread is busy (a server reads the end
 * of such a connection in a task of its own, which the executor refuses too).
 */
class RequestCountIntegrationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	@ParameterizedTest(name = "{0}")
	@EnumSource(TestServers.class)
	void everyRequestCountsOnceWithAndWithoutKeepAlive(TestServers server) {
		try (ConfigurableApplicationContext context = server.start("app.threads.model=platform")) {
			Http http = new Http(context);
			http.get("/thread");
			Map<String, Object> before = settled(http);
			int keptAlive = 0;
			for (int connection = 0; connection < 4; connection++) {
				assertThat(RawHttp.keptAlive(http.port(), "/thread", 25)).containsOnly(200);
				keptAlive += 25;
			}
			int closing = 0;
			for (int i = 0; i < 50; i++) {
				assertThat(RawHttp.closing(http.port(), "/thread")).isEqualTo(200);
				closing++;
			}
			int sent = keptAlive + closing;
			Map<String, Object> after = await().atMost(TIMEOUT)
				.until(() -> requests(http), (requests) -> number(requests, "completed") - number(before, "completed") == sent);
			assertThat(number(after, "submitted") - number(before, "submitted")).isEqualTo(sent);
			assertThat(number(after, "rejected")).isZero();
			// the meters read the same counts
			assertThat(http.metric("threadmodel.requests.received")).isEqualTo(number(after, "submitted"));
			assertThat(http.metric("threadmodel.requests.completed")).isEqualTo(number(after, "completed"));
			long tasks = tasks(after) - tasks(before);
			System.out.printf("%s: %d requests sent (%d kept alive, %d closing), %d counted; executor tasks: %d%n",
					server.id(), sent, keptAlive, closing, number(after, "submitted") - number(before, "submitted"),
					tasks);
			// a request sent whole takes one task, and a connection's end at most one more: an
			// adapter that hands the server only part of a request head (Jetty's probe routing)
			// would make it read the rest in a second task, a second turn for every request
			assertThat(tasks).isLessThan(2L * sent);
		}
	}

	@ParameterizedTest(name = "{0}")
	@EnumSource(TestServers.class)
	void rejectedIsThe503sTheClientsReceived(TestServers server) throws Exception {
		try (ConfigurableApplicationContext context = server.start("app.threads.model=platform",
				"app.threads.platform.max-threads=2", "app.threads.platform.queue-capacity=0")) {
			Http http = new Http(context);
			ThreadController controller = context.getBean(ThreadController.class);
			http.get("/thread");
			Map<String, Object> before = settled(http);
			List<CompletableFuture<HttpResponse<String>>> blocked = new ArrayList<>();
			for (int i = 0; i < 2; i++) {
				blocked.add(http.getAsync("/block"));
			}
			await().atMost(TIMEOUT).until(() -> number(requests(http), "running") == 2);
			int answered503 = 0;
			for (int i = 0; i < 20; i++) {
				// kept alive, then closed by the client once answered: the server reads that end
				// in a task of its own (unless it closed the connection itself after the 503)
				answered503 += (int) RawHttp.keptAlive(http.port(), "/thread", 1).stream().filter((s) -> s == 503).count();
				answered503 += (RawHttp.closing(http.port(), "/thread") == 503) ? 1 : 0;
			}
			assertThat(answered503).isEqualTo(40);
			controller.openGate();
			for (CompletableFuture<HttpResponse<String>> response : blocked) {
				assertThat(response.get(30, TimeUnit.SECONDS).body()).isEqualTo("released");
			}
			// an answer can arrive before its task has ended
			await().atMost(TIMEOUT).until(() -> number(requests(http), "running") == 0);
			// more requests, while connections end: with no queue, one may still find both threads
			// busy (Jetty reads a connection's end in a task of its own); its 503 counts like any other
			List<Integer> more = new ArrayList<>();
			for (int i = 0; i < 5; i++) {
				more.add(RawHttp.closing(http.port(), "/thread"));
			}
			assertThat(more).isSubsetOf(200, 503).contains(200);
			answered503 += (int) more.stream().filter((s) -> s == 503).count();
			int expected = answered503;
			// held for a while: a late refusal of a connection's end must not add to it
			Map<String, Object> after = await().atMost(TIMEOUT)
				.during(Duration.ofMillis(500))
				.until(() -> requests(http), (requests) -> number(requests, "rejected")
						- number(before, "rejected") == expected);
			assertThat(number(after, "completed") - number(before, "completed")).isEqualTo(2 + 40 + 5);
			assertThat(http.metric("threadmodel.requests.rejected", "reason:queue-full"))
				.isEqualTo(number(after, "rejected"));
			System.out.printf("%s: %d answers of 503 received, rejected %d; executor tasks refused: %d%n", server.id(),
					answered503, number(after, "rejected") - number(before, "rejected"),
					refusedTasks(after) - refusedTasks(before));
		}
	}

	/**
	 * The figures once the warm-up request has finished everywhere.
	 */
	private static Map<String, Object> settled(Http http) {
		return await().atMost(TIMEOUT)
			.until(() -> requests(http), (requests) -> number(requests, "running") == 0
					&& number(requests, "completed") == number(requests, "submitted"));
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> requests(Http http) {
		return (Map<String, Object>) http.threadModel().get("requests");
	}

	@SuppressWarnings("unchecked")
	private static long tasks(Map<String, Object> requests) {
		return number((Map<String, Object>) requests.get("executorTasks"), "submitted");
	}

	@SuppressWarnings("unchecked")
	private static long refusedTasks(Map<String, Object> requests) {
		return number((Map<String, Object>) requests.get("executorTasks"), "refused");
	}

	private static long number(Map<String, Object> map, String key) {
		return ((Number) map.get(key)).longValue();
	}

}
