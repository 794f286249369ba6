package io.github.threadmodel;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import io.github.threadmodel.executor.ThreadModel;
import io.github.threadmodel.testapp.Http;
import io.github.threadmodel.testapp.TestServers;
import io.github.threadmodel.testapp.ThreadController;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.Ordered;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Starts each embedded server for real, in each model, and checks which threads serve
 * requests and what the endpoint reports while requests wait.
 */
class ServerThreadModelIntegrationTests {

	static Stream<Arguments> serversAndModels() {
		return Stream.of(TestServers.values())
			.flatMap((server) -> Stream.of(ThreadModel.values()).map((model) -> Arguments.of(server, model)));
	}

	@ParameterizedTest(name = "{0} {1}")
	@MethodSource("serversAndModels")
	void requestsRunOnTheThreadsOfTheModel(TestServers server, ThreadModel model) {
		try (ConfigurableApplicationContext context = server.start("app.threads.model=" + model.id())) {
			Http http = new Http(context);
			String thread = http.get("/thread");
			assertThat(thread).startsWith("request-" + model.id() + "-")
				.endsWith("virtual=" + (model == ThreadModel.VIRTUAL));
			Map<String, Object> threadModel = http.threadModel();
			assertThat(threadModel).containsEntry("model", model.id())
				.containsEntry("modelSource", "app.threads.model")
				.containsEntry("server", server.id());
			assertThat(executor(threadModel, "requests")).containsEntry("model", model.id());
		}
	}

	@ParameterizedTest(name = "{0}")
	@EnumSource(TestServers.class)
	void springVirtualThreadsPropertyChoosesVirtualWhenTheStarterIsNotSet(TestServers server) {
		try (ConfigurableApplicationContext context = server.start("spring.threads.virtual.enabled=true")) {
			Http http = new Http(context);
			assertThat(http.get("/thread")).startsWith("request-virtual-").endsWith("virtual=true");
			assertThat(http.threadModel()).containsEntry("modelSource", "spring.threads.virtual.enabled");
		}
	}

	@ParameterizedTest(name = "{0}")
	@EnumSource(TestServers.class)
	void starterWinsOverSpringVirtualThreadsProperty(TestServers server) {
		try (ConfigurableApplicationContext context = server.start("spring.threads.virtual.enabled=true",
				"app.threads.model=platform")) {
			assertThat(new Http(context).get("/thread")).startsWith("request-platform-").endsWith("virtual=false");
		}
	}

	@ParameterizedTest(name = "{0}")
	@EnumSource(TestServers.class)
	void starterServerCustomizersComeAfterSpringBootsOwn(TestServers server) {
		try (ConfigurableApplicationContext context = server.start("app.threads.model=virtual")) {
			Map<Boolean, List<Integer>> orders = context.getBeansOfType(WebServerFactoryCustomizer.class)
				.values()
				.stream()
				.filter((customizer) -> customizer instanceof Ordered)
				.collect(Collectors.partitioningBy(
						(customizer) -> customizer.getClass().getName().startsWith("io.github.threadmodel."),
						Collectors.mapping((customizer) -> ((Ordered) customizer).getOrder(), Collectors.toList())));
			List<Integer> starters = orders.get(true);
			List<Integer> springBoots = orders.get(false);
			assertThat(starters).isNotEmpty();
			assertThat(springBoots).isNotEmpty();
			assertThat(starters).allSatisfy((order) -> assertThat(order).isGreaterThan(Collections.max(springBoots)));
		}
	}

	@ParameterizedTest(name = "{0}")
	@EnumSource(value = TestServers.class, names = "NETTY")
	void nettyKeepsReactiveHandlersOnTheEventLoop(TestServers server) {
		try (ConfigurableApplicationContext context = server.start("app.threads.model=virtual")) {
			Http http = new Http(context);
			assertThat(http.get("/thread/reactive")).startsWith("reactor-http-").endsWith("virtual=false");
			assertThat(http.threadModel()).containsKey("netty");
		}
	}

	@ParameterizedTest(name = "{0}")
	@EnumSource(TestServers.class)
	void platformPoolQueuesRequestsBeyondMaxThreads(TestServers server) throws Exception {
		assertQueueDepth(server, 2, 4, "app.threads.model=platform", "app.threads.platform.max-threads=2");
	}

	@ParameterizedTest(name = "{0}")
	@EnumSource(TestServers.class)
	void virtualThreadsWithoutLimitRunEveryRequestAtOnce(TestServers server) throws Exception {
		assertQueueDepth(server, 6, 0, "app.threads.model=virtual");
	}

	@ParameterizedTest(name = "{0}")
	@EnumSource(TestServers.class)
	void virtualConcurrencyLimitQueuesRequestsBeyondIt(TestServers server) throws Exception {
		assertQueueDepth(server, 2, 4, "app.threads.model=virtual", "app.threads.virtual.max-concurrency=2");
	}

	/**
	 * Requests whose virtual threads wait for a carrier, because CPU-bound requests hold
	 * every carrier (virtual threads are not time-sliced), are not queued: nothing limits
	 * them, the CPU is short. Their wait shows as {@code carrierWait}, except on Jetty, whose
	 * selecting threads wait for a carrier too and read the requests only afterwards.
	 */
	@ParameterizedTest(name = "{0}")
	@EnumSource(TestServers.class)
	void virtualThreadsWaitingForACarrierAreNotQueued(TestServers server) throws Exception {
		try (ConfigurableApplicationContext context = server.start("app.threads.model=virtual")) {
			Http http = new Http(context);
			http.get("/spin?ms=1");
			awaitRequests(http, (requests) -> number(requests, "running") == 0, () -> "");
			int carriers = Integer.getInteger("jdk.virtualThreadScheduler.parallelism",
					Runtime.getRuntime().availableProcessors());
			List<CompletableFuture<HttpResponse<String>>> spinning = new ArrayList<>();
			for (int i = 0; i < carriers; i++) {
				spinning.add(http.getAsync("/spin?gated=true"));
			}
			awaitRequests(http, (requests) -> number(requests, "running") == carriers, () -> "");
			List<CompletableFuture<HttpResponse<String>>> waiting = new ArrayList<>();
			for (int i = 0; i < 3; i++) {
				waiting.add(http.getAsync("/thread"));
			}
			// they wait while the spinning requests hold the carriers: 500 ms, well over the 300
			// the carrier wait is checked against below
			await().during(Duration.ofMillis(500))
				.atMost(Duration.ofSeconds(5))
				.until(() -> waiting.stream().noneMatch(CompletableFuture::isDone));
			assertThat(executor(http.threadModel(), "requests")).containsEntry("queued", 0);
			context.getBean(ThreadController.class).openGate(); // the spinning requests end
			for (CompletableFuture<HttpResponse<String>> response : waiting) {
				assertThat(response.get(30, TimeUnit.SECONDS).body()).startsWith("request-virtual-");
			}
			for (CompletableFuture<HttpResponse<String>> response : spinning) {
				assertThat(response.get(30, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
			}
			Map<String, Object> requests = executor(http.threadModel(), "requests");
			assertThat(requests).containsEntry("peakQueued", 0);
			assertThat(executor(requests, "queueWait")).containsEntry("count", 0);
			double carrierWaitMs = ((Number) executor(requests, "carrierWait").get("maxMs")).doubleValue();
			// the server's own I/O threads are platform threads (Jetty's too, with the probes'
			// lane): the requests reached the executor at once and waited there for a carrier
			assertThat(carrierWaitMs).isGreaterThanOrEqualTo(300);
		}
	}

	/**
	 * Spring Boot caps Jetty's {@code VirtualThreadPool} at {@code server.jetty.threads.max}
	 * (Boot 3.5.11+ and 4.0.3+); the starter's executor replaces that pool.
	 */
	@Test
	void virtualThreadsOnJettyAreNotCappedByItsThreadsMax() throws Exception {
		assertQueueDepth(TestServers.JETTY, 6, 0, "app.threads.model=virtual", "spring.threads.virtual.enabled=true",
				"server.jetty.threads.min=2", "server.jetty.threads.max=4");
	}

	/**
	 * Sends 6 requests that block until released, checks the endpoint's running and queued
	 * figures while they wait, then releases them and checks that all 6 completed.
	 */
	private void assertQueueDepth(TestServers server, int running, int queued, String... properties)
			throws Exception {
		try (ConfigurableApplicationContext context = server.start(properties)) {
			Http http = new Http(context);
			ThreadController controller = context.getBean(ThreadController.class);
			http.get("/thread"); // warm up: the first request may start more than the test's
			// A response can arrive before its task has counted itself completed.
			Map<String, Object> idle = awaitRequests(http, (requests) -> number(requests, "running") == 0,
					() -> "");
			long completedBefore = number(idle, "completed");
			List<CompletableFuture<HttpResponse<String>>> responses = new ArrayList<>();
			for (int i = 0; i < 6; i++) {
				responses.add(http.getAsync("/block"));
			}
			Map<String, Object> waiting = awaitRequests(http,
					(requests) -> number(requests, "running") == running && number(requests, "queued") == queued,
					() -> " responses: " + responses.stream().map(ServerThreadModelIntegrationTests::describe).toList());
			assertThat(number(waiting, "peakQueued")).isGreaterThanOrEqualTo(queued);
			assertThat(responses).noneMatch(CompletableFuture::isDone);
			controller.openGate();
			for (CompletableFuture<HttpResponse<String>> response : responses) {
				assertThat(response.get(30, TimeUnit.SECONDS).body()).isEqualTo("released");
			}
			Map<String, Object> done = awaitRequests(http, (requests) -> number(requests, "running") == 0
					&& number(requests, "completed") == completedBefore + 6, () -> "");
			assertThat(done).containsEntry("queued", 0);
		}
	}

	private static String describe(CompletableFuture<HttpResponse<String>> response) {
		return response.isDone() ? response.join().statusCode() + " " + response.join().body() : "pending";
	}

	private static Map<String, Object> awaitRequests(Http http, Predicate<Map<String, Object>> condition,
			Supplier<String> info) {
		AtomicReference<Map<String, Object>> last = new AtomicReference<>();
		await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20)).untilAsserted(() -> {
			Map<String, Object> requests = executor(http.threadModel(), "requests");
			last.set(requests);
			assertThat(condition.test(requests)).as(() -> "requests never matched: " + requests + info.get()).isTrue();
		});
		return last.get();
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> executor(Map<String, Object> threadModel, String name) {
		return (Map<String, Object>) threadModel.get(name);
	}

	private static long number(Map<String, Object> map, String key) {
		return ((Number) map.get(key)).longValue();
	}

}
