package io.github.threadmodel;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

import com.fasterxml.jackson.databind.ObjectMapper;
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
 * Readiness and the {@code threadModel} health contributor while the starter sheds load,
 * on each real server: with {@code app.threads.readiness.refuse-when-shedding} readiness
 * refuses traffic after sustained 503s and accepts it again once calm; without it,
 * readiness stays up. Liveness and the contributor never go down.
 */
class ReadinessOnSheddingIntegrationTests {

	private static final ObjectMapper json = new ObjectMapper();

	@ParameterizedTest(name = "{0}")
	@EnumSource(TestServers.class)
	void readinessRefusesTrafficWhileSheddingWhenAskedAndAcceptsItOnceCalm(TestServers server) throws Exception {
		try (ConfigurableApplicationContext context = start(server, "app.threads.readiness.refuse-when-shedding=true")) {
			int port = new Http(context).port();
			CompletableFuture<HttpResponse<String>> blocked = new Http(context).getAsync("/block");
			await().until(() -> context.getBean(ThreadController.class).blocked() == 1);
			await().atMost(Duration.ofSeconds(20)).until(() -> {
				assertThat(RawHttp.closing(port, "/thread")).isEqualTo(503);
				assertThat(RawHttp.closing(port, "/actuator/health/liveness")).isEqualTo(200);
				return RawHttp.closing(port, "/actuator/health/readiness") == 503;
			});
			assertThat(threadModelHealth(port)).containsEntry("status", "UP")
				.extractingByKey("details")
				.asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
				.containsEntry("shedding", true)
				.containsEntry("model", "platform")
				.containsEntry("limit", 1)
				.containsEntry("inFlight", 1);
			context.getBean(ThreadController.class).openGate();
			assertThat(blocked).succeedsWithin(Duration.ofSeconds(30));
			await().atMost(Duration.ofSeconds(20))
				.until(() -> RawHttp.closing(port, "/actuator/health/readiness") == 200);
		}
	}

	@ParameterizedTest(name = "{0}")
	@EnumSource(TestServers.class)
	void readinessStaysUpWhileSheddingByDefault(TestServers server) throws Exception {
		try (ConfigurableApplicationContext context = start(server)) {
			int port = new Http(context).port();
			CompletableFuture<HttpResponse<String>> blocked = new Http(context).getAsync("/block");
			await().until(() -> context.getBean(ThreadController.class).blocked() == 1);
			List<Integer> readiness = new CopyOnWriteArrayList<>();
			await().until(() -> shedsWhileReady(port, readiness)
					&& Boolean.TRUE.equals(details(threadModelHealth(port)).get("shedding")));
			// Shedding was sampled; with refuse-when-shedding, readiness would refuse one sample
			// (a second: shedding-for) later. It stays up past that while the 503s go on.
			await().during(Duration.ofMillis(1500))
				.atMost(Duration.ofSeconds(5))
				.pollInterval(Duration.ofMillis(50))
				.until(() -> shedsWhileReady(port, readiness));
			assertThat(readiness).isNotEmpty().containsOnly(200);
			context.getBean(ThreadController.class).openGate();
			assertThat(blocked).succeedsWithin(Duration.ofSeconds(30));
		}
	}

	/**
	 * Sends a request, which is answered 503, and asks readiness, keeping its answer.
	 */
	private static boolean shedsWhileReady(int port, List<Integer> readiness) {
		assertThat(RawHttp.closing(port, "/thread")).isEqualTo(503);
		readiness.add(RawHttp.closing(port, "/actuator/health/readiness"));
		return readiness.get(readiness.size() - 1) == 200;
	}

	private static ConfigurableApplicationContext start(TestServers server, String... properties) {
		List<String> all = new ArrayList<>(List.of("management.server.port=",
				"management.endpoint.health.probes.enabled=true", "management.endpoint.health.show-details=always",
				"management.endpoints.web.exposure.include=health,threadmodel", "app.threads.probes.paths=/actuator/threadmodel",
				"app.threads.model=platform", "app.threads.platform.max-threads=1",
				"app.threads.platform.queue-capacity=0", "app.threads.readiness.shedding-for=1s",
				"app.threads.readiness.accept-after=1s"));
		all.addAll(List.of(properties));
		return server.start(all.toArray(String[]::new));
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> threadModelHealth(int port) throws Exception {
		Map<String, Object> health = json.readValue(RawHttp.body(port, "/actuator/health"), Map.class);
		return (Map<String, Object>) ((Map<String, Object>) health.get("components")).get("threadModel");
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> details(Map<String, Object> component) {
		return (Map<String, Object>) component.get("details");
	}

}
