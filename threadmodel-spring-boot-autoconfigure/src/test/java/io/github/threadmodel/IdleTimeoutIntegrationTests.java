package io.github.threadmodel;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import io.github.threadmodel.autoconfigure.ThreadModelAutoConfiguration;
import io.github.threadmodel.executor.ThreadModelExecutor;
import io.github.threadmodel.internal.handoff.RequestHandOff;
import io.github.threadmodel.testapp.Http;
import io.github.threadmodel.testapp.TestServers;
import io.github.threadmodel.testapp.ThreadController;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.EnumSource.Mode;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A request that waits in the starter's queue longer than the server's own connection
 * timeouts allow a connection to stay idle. Jetty's idle timeout closes the connection of
 * a request that waits unread, without an answer: there the request is answered 503 with
 * {@code Retry-After} before that, on both models, read ahead or not, and counted. The
 * other servers' timeouts do not apply to a request the executor holds: there it waits
 * for its turn and is served.
 */
@ExtendWith(OutputCaptureExtension.class)
class IdleTimeoutIntegrationTests {

	/** Each server's timeouts that close an idle connection, at their shortest useful value. */
	private static final Map<String, String[]> TIMEOUTS = Map.of("tomcat",
			new String[] { "server.tomcat.connection-timeout=1s", "server.tomcat.keep-alive-timeout=1s" },
			"undertow",
			new String[] { "server.undertow.no-request-timeout=1s", "server.undertow.options.server.IDLE_TIMEOUT=1000",
					"server.undertow.options.socket.READ_TIMEOUT=1000" },
			"netty", new String[] { "server.netty.idle-timeout=1s", "server.netty.connection-timeout=1s" });

	@ParameterizedTest(name = "{0}, read ahead: {1}")
	@CsvSource({ "platform, true", "platform, false", "virtual, true", "virtual, false" })
	void jettyAnswersAQueuedRequest503BeforeItsIdleTimeoutClosesTheConnection(String model, boolean readAhead,
			CapturedOutput output) throws Exception {
		try (ConfigurableApplicationContext context = start(TestServers.JETTY, readAhead,
				"server.jetty.connection-idle-timeout=3s", "app.threads.model=" + model,
				"app.threads.platform.max-threads=1", "app.threads.virtual.max-concurrency=1")) {
			assertThat(output).contains("requests wait at most 2250ms (the connection idle timeout 3s, less a margin)");
			Http http = new Http(context);
			ThreadController controller = context.getBean(ThreadController.class);
			CompletableFuture<HttpResponse<String>> holding = holdTheOnlyTurn(http, controller);
			CompletableFuture<HttpResponse<String>> queued = new Http(context).getAsync("/thread");
			// Today's Jetty closes an unread request's connection after 3 s; the 503 comes before.
			await().atMost(Duration.ofSeconds(10)).until(queued::isDone);
			assertThat(queued).isCompletedWithValueMatching((response) -> response.statusCode() == 503,
					"answered 503");
			assertThat(queued.join().headers().firstValue("Retry-After")).hasValue("1");
			assertThat(queued.join().body()).startsWith("The server is busy: the request waited too long");
			assertThat(controller.blocked()).isOne(); // the turn was still taken
			await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
				assertThat(requests(http)).containsEntry("rejectedIdleTimeout", 1).containsEntry("rejected", 1);
				assertThat(http.metric("threadmodel.requests.rejected", "reason:idle-timeout")).isOne();
			});
			controller.openGate();
			assertThat(holding.get()).satisfies((response) -> assertThat(response.body()).isEqualTo("released"));
		}
	}

	@ParameterizedTest(name = "{0}")
	@EnumSource(value = TestServers.class, names = "JETTY", mode = Mode.EXCLUDE)
	void otherServersKeepAQueuedRequestsConnectionPastTheirTimeouts(TestServers server, CapturedOutput output)
			throws Exception {
		String[] properties = TIMEOUTS.get(server.id());
		String[] all = new String[properties.length + 2];
		System.arraycopy(properties, 0, all, 0, properties.length);
		all[properties.length] = "app.threads.model=virtual";
		all[properties.length + 1] = "app.threads.virtual.max-concurrency=1";
		try (ConfigurableApplicationContext context = start(server, false, all)) {
			assertThat(output).doesNotContain("requests wait at most");
			Http http = new Http(context);
			ThreadController controller = context.getBean(ThreadController.class);
			CompletableFuture<HttpResponse<String>> holding = holdTheOnlyTurn(http, controller);
			CompletableFuture<HttpResponse<String>> queued = new Http(context).getAsync("/thread");
			await().during(Duration.ofMillis(2500)).atMost(Duration.ofSeconds(5)).until(() -> !queued.isDone());
			controller.openGate();
			assertThat(holding.get().statusCode()).isEqualTo(200);
			assertThat(queued.get().statusCode()).isEqualTo(200);
			assertThat(requests(http)).containsEntry("rejected", 0);
		}
	}

	/**
	 * Starts the application; without reading ahead, a request waits in the queue as
	 * requests do beyond the executor's read-ahead bound, or while the heap is under
	 * pressure: unread by the server.
	 */
	private static ConfigurableApplicationContext start(TestServers server, boolean readAhead,
			String... properties) {
		ConfigurableApplicationContext context = server.start(properties);
		if (!readAhead) {
			RequestHandOff.readRequestsAhead(
					context.getBean(ThreadModelAutoConfiguration.REQUEST_EXECUTOR_BEAN_NAME, ThreadModelExecutor.class), 0);
		}
		return context;
	}

	private static CompletableFuture<HttpResponse<String>> holdTheOnlyTurn(Http http, ThreadController controller) {
		CompletableFuture<HttpResponse<String>> holding = http.getAsync("/block");
		await().atMost(Duration.ofSeconds(10)).until(() -> controller.blocked() == 1);
		return holding;
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> requests(Http http) {
		return (Map<String, Object>) http.threadModel().get("requests");
	}

}
