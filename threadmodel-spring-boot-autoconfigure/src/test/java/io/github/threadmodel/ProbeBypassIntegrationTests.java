package io.github.threadmodel;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

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
 * Health probes while every turn of the request limit is taken, on each real server and
 * with each bounding: Spring Boot's health endpoint, its liveness and readiness groups and
 * a group's additional path answer 200 at once, on the main port (with the actuator there)
 * as on a management port, while ordinary requests wait or get 503. Only the exact paths
 * skip: variants of them are admitted like any request.
 */
class ProbeBypassIntegrationTests {

	private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(5);

	private static final List<String> PROBES = List.of("/actuator/health", "/actuator/health/liveness",
			"/actuator/health/readiness", "/livez");

	@ParameterizedTest(name = "{0}")
	@EnumSource(TestServers.class)
	void probesDoNotWaitBehindAFixedVirtualLimit(TestServers server) {
		try (ConfigurableApplicationContext context = startOnOnePort(server, "app.threads.model=virtual",
				"app.threads.virtual.max-concurrency=2")) {
			List<CompletableFuture<HttpResponse<String>>> blocked = takeEveryTurn(context, 2, 3);
			assertProbesAnswer(new Http(context).port());
			assertThat(blocked).noneMatch(CompletableFuture::isDone);
			release(context, blocked);
			assertBypassCounted(context, server);
		}
	}

	@ParameterizedTest(name = "{0}")
	@EnumSource(TestServers.class)
	void probesAreNotShedWhenRequestsTimeOutInTheQueue(TestServers server) {
		try (ConfigurableApplicationContext context = startOnOnePort(server, "app.threads.model=virtual",
				"app.threads.virtual.max-concurrency=2", "app.threads.virtual.queue-timeout=200ms")) {
			List<CompletableFuture<HttpResponse<String>>> blocked = takeEveryTurn(context, 2, 0);
			assertProbesAnswer(new Http(context).port());
			if (server != TestServers.NETTY) {
				assertVariantsAreAdmittedLikeAnyRequest(new Http(context).port());
			}
			release(context, blocked);
		}
	}

	@ParameterizedTest(name = "{0}")
	@EnumSource(TestServers.class)
	void probesAreNotShedWhenThePlatformQueueIsFull(TestServers server) {
		try (ConfigurableApplicationContext context = startOnOnePort(server, "app.threads.model=platform",
				"app.threads.platform.max-threads=2", "app.threads.platform.queue-capacity=0")) {
			List<CompletableFuture<HttpResponse<String>>> blocked = takeEveryTurn(context, 2, 0);
			assertProbesAnswer(new Http(context).port());
			if (server != TestServers.NETTY) {
				assertThat(RawHttp.closing(new Http(context).port(), "/thread")).isEqualTo(503);
			}
			release(context, blocked);
		}
	}

	@ParameterizedTest(name = "{0}")
	@EnumSource(TestServers.class)
	void probesDoNotWaitOnAManagementPort(TestServers server) {
		try (ConfigurableApplicationContext context = server.start("app.threads.model=platform",
				"app.threads.platform.max-threads=2", "management.endpoint.health.probes.enabled=true",
				"management.endpoints.web.exposure.include=health,threadmodel,metrics")) {
			List<CompletableFuture<HttpResponse<String>>> blocked = takeEveryTurn(context, 2, 3);
			int managementPort = Integer.parseInt(context.getEnvironment().getProperty("local.management.port"));
			for (String probe : List.of("/actuator/health/liveness", "/actuator/health/readiness")) {
				assertThat(CompletableFuture.supplyAsync(() -> RawHttp.closing(managementPort, probe)))
					.succeedsWithin(PROBE_TIMEOUT)
					.isEqualTo(200);
			}
			release(context, blocked);
		}
	}

	private static ConfigurableApplicationContext startOnOnePort(TestServers server, String... properties) {
		List<String> all = new ArrayList<>(List.of("management.server.port=",
				"management.endpoint.health.probes.enabled=true",
				"management.endpoint.health.group.liveness.additional-path=server:/livez",
				"management.endpoints.web.exposure.include=health,threadmodel,metrics",
				// the test reads the endpoint and a meter while every turn is taken
				"app.threads.probes.paths=/actuator/threadmodel,/actuator/metrics/threadmodel.requests.bypassed"));
		all.addAll(List.of(properties));
		return server.start(all.toArray(String[]::new));
	}

	/**
	 * Sends requests that block until released: {@code running} take every turn, then
	 * {@code waiting} more wait for one.
	 */
	private static List<CompletableFuture<HttpResponse<String>>> takeEveryTurn(ConfigurableApplicationContext context,
			int running, int waiting) {
		Http http = new Http(context);
		List<CompletableFuture<HttpResponse<String>>> blocked = new ArrayList<>();
		for (int i = 0; i < running; i++) {
			blocked.add(http.getAsync("/block"));
		}
		await().until(() -> context.getBean(ThreadController.class).blocked() == running);
		for (int i = 0; i < waiting; i++) {
			blocked.add(http.getAsync("/block"));
		}
		await().until(() -> number(requests(context), "queued") == waiting);
		return blocked;
	}

	private static void assertProbesAnswer(int port) {
		for (String probe : PROBES) {
			// each on a new connection, as the kubelet sends them
			assertThat(CompletableFuture.supplyAsync(() -> RawHttp.closing(port, probe)))
				.as(probe)
				.succeedsWithin(PROBE_TIMEOUT)
				.isEqualTo(200);
		}
	}

	/**
	 * Only a probe path exactly as written skips: with every turn taken and a short queue
	 * timeout, its variants wait and are refused like any request (or are refused by the
	 * server itself, as Jetty does with an ambiguous path).
	 */
	private static void assertVariantsAreAdmittedLikeAnyRequest(int port) {
		for (String variant : List.of("/actuator/health/", "/actuator/health/liveness/", "/actuator/%68ealth",
				"/actuator/health/%6civeness", "//actuator/health", "/actuator/health/../thread",
				"/actuator/health;x=y")) {
			assertThat(CompletableFuture.supplyAsync(() -> RawHttp.closing(port, variant)))
				.as(variant)
				.succeedsWithin(PROBE_TIMEOUT)
				.satisfies((status) -> assertThat(status).as(variant).isIn(503, 400));
		}
	}

	private static void release(ConfigurableApplicationContext context,
			List<CompletableFuture<HttpResponse<String>>> blocked) {
		context.getBean(ThreadController.class).openGate();
		assertThat(blocked).allSatisfy((response) -> assertThat(response).succeedsWithin(Duration.ofSeconds(30))
			.extracting(HttpResponse::statusCode)
			.isEqualTo(200));
	}

	private static void assertBypassCounted(ConfigurableApplicationContext context, TestServers server) {
		if (server == TestServers.NETTY) {
			return; // WebFlux serves the actuator off the request executor: nothing to bypass
		}
		assertThat(number(requests(context), "bypassed")).isGreaterThanOrEqualTo(PROBES.size());
		assertThat(new Http(context).metric("threadmodel.requests.bypassed")).isGreaterThanOrEqualTo(PROBES.size());
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> requests(ConfigurableApplicationContext context) {
		return (Map<String, Object>) new Http(context).threadModel().get("requests");
	}

	private static long number(Map<String, Object> map, String key) {
		return ((Number) map.get(key)).longValue();
	}

}
