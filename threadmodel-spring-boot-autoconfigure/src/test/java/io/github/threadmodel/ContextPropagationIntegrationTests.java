package io.github.threadmodel;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.github.threadmodel.executor.ThreadModel;
import io.github.threadmodel.testapp.Http;
import io.github.threadmodel.testapp.TestServers;
import io.github.threadmodel.testapp.ThreadController;
import io.github.threadmodel.testapp.TracedTasks;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * With a real tracer (Micrometer Tracing over Brave) and a
 * {@code ContextPropagatingTaskDecorator}, the trace of a request, as its client sent it
 * ({@code traceparent}), reaches the tracer and the MDC wherever its work runs: an
 * {@code @Async} method, a {@code Callable}, a {@code DeferredResult} completed by the
 * task executor and a {@code StreamingResponseBody} on servlet servers, a blocking
 * controller method on WebFlux; in both models, and after a live switch to the other.
 * Every such task is decorated by the application's decorator. On WebFlux the trace
 * reaches a blocking controller method through Reactor's context propagation
 * ({@code spring.reactor.context-propagation=auto}, as a traced WebFlux application sets
 * it), not through the decorator: the event loop holds no trace in its thread locals.
 */
class ContextPropagationIntegrationTests {

	static Stream<Arguments> serversAndModels() {
		return Stream.of(TestServers.values())
			.flatMap((server) -> Stream.of(ThreadModel.values()).map((model) -> Arguments.of(server, model)));
	}

	/**
	 * WebFlux reads every request on its event loop: nothing is read ahead there.
	 */
	static Stream<Arguments> servletServersAndModels() {
		return serversAndModels().filter((arguments) -> !((TestServers) arguments.get()[0]).id().equals("netty"));
	}

	@ParameterizedTest(name = "{0} {1}")
	@MethodSource("serversAndModels")
	void traceAndMdcFollowTheWorkOnEveryPathBeforeAndAfterASwitch(TestServers server, ThreadModel model)
			throws Exception {
		try (ConfigurableApplicationContext context = server.start("app.threads.model=" + model.id(),
				"spring.main.sources=" + TracedTasks.class.getName(), "management.tracing.sampling.probability=1.0",
				"management.endpoint.threadmodel.access=unrestricted", "spring.reactor.context-propagation=auto")) {
			Http http = new Http(context);
			assertTraceFollowsTheWork(server, http, model);
			ThreadModel other = (model == ThreadModel.PLATFORM) ? ThreadModel.VIRTUAL : ThreadModel.PLATFORM;
			HttpResponse<String> switched = http.postThreadModel("{\"model\":\"" + other.id() + "\"}");
			assertThat(switched.statusCode()).as(switched.body()).isEqualTo(200);
			assertTraceFollowsTheWork(server, http, other);
		}
	}

	/**
	 * A request that waits for its turn is read ahead and runs on the thread that admits
	 * it: the trace its client sent is the one its request thread sees, on both models.
	 */
	@ParameterizedTest(name = "{0} {1}")
	@MethodSource("servletServersAndModels")
	void traceFollowsARequestReadAheadOfItsTurn(TestServers server, ThreadModel model) throws Exception {
		try (ConfigurableApplicationContext context = server.start("app.threads.model=" + model.id(),
				"app.threads.platform.max-threads=1", "app.threads.virtual.max-concurrency=1",
				"spring.main.sources=" + TracedTasks.class.getName(), "management.tracing.sampling.probability=1.0")) {
			Http http = new Http(context);
			ThreadController controller = context.getBean(ThreadController.class);
			CompletableFuture<HttpResponse<String>> blocked = http.getAsync("/block");
			await().until(() -> controller.blocked() == 1);
			Map<String, CompletableFuture<HttpResponse<String>>> waiting = new LinkedHashMap<>();
			for (int i = 0; i < 3; i++) {
				String traceId = hex(16);
				waiting.put(traceId,
						http.getAsync("/context/request", "traceparent", "00-" + traceId + "-" + hex(8) + "-01"));
			}
			await().until(() -> ((Number) ((Map<?, ?>) http.threadModel().get("requests")).get("queued"))
				.intValue() == 3);
			controller.openGate();
			assertThat(blocked).succeedsWithin(Duration.ofSeconds(30));
			for (Map.Entry<String, CompletableFuture<HttpResponse<String>>> request : waiting.entrySet()) {
				HttpResponse<String> response = request.getValue().get(30, TimeUnit.SECONDS);
				assertThat(response.body()).startsWith("trace=" + request.getKey() + " mdc=" + request.getKey()
						+ " decorated=false thread=request-" + model.id() + "-");
			}
		}
	}

	private static void assertTraceFollowsTheWork(TestServers server, Http http, ThreadModel model)
			throws Exception {
		boolean reactive = server.id().equals("netty");
		List<String> paths = reactive ? List.of("/context/blocking")
				: Stream.concat(Stream.of("/context/request"), Stream.of(TracedTasks.SERVLET_PATHS)).toList();
		for (String path : paths) {
			String traceId = hex(16);
			HttpResponse<String> response = http
				.getAsync(path, "traceparent", "00-" + traceId + "-" + hex(8) + "-01")
				.get(30, TimeUnit.SECONDS);
			boolean onTheRequestThread = path.equals("/context/request");
			String executor = (reactive || onTheRequestThread) ? "request-" : "task-";
			assertThat(response.statusCode()).as("%s on %s threads: %s", path, model.id(), response.body())
				.isEqualTo(200);
			assertThat(response.body()).as("%s on %s threads", path, model.id())
				.startsWith("trace=" + traceId + " mdc=" + traceId + " decorated=" + !onTheRequestThread + " thread="
						+ executor + model.id() + "-");
		}
	}

	private static String hex(int bytes) {
		byte[] random = new byte[bytes];
		ThreadLocalRandom.current().nextBytes(random);
		return HexFormat.of().formatHex(random);
	}

}
