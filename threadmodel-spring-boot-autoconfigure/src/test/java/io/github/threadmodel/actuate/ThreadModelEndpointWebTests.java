package io.github.threadmodel.actuate;

import java.util.List;
import java.util.Map;

import io.github.threadmodel.testapp.Rest;
import io.github.threadmodel.testapp.TestServers;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code /actuator/threadmodel} and the meters of a real Tomcat application.
 */
@SpringBootTest(classes = TestServers.TomcatApp.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "app.threads.model=virtual", "app.threads.tasks.model=platform",
				"app.threads.virtual.max-concurrency=50",
				"management.endpoints.web.exposure.include=threadmodel,metrics" })
class ThreadModelEndpointWebTests {

	private static final ParameterizedTypeReference<Map<String, Object>> JSON = new ParameterizedTypeReference<>() {
	};

	@LocalServerPort
	private int port;

	private Rest rest() {
		return new Rest(this.port);
	}

	@Test
	@SuppressWarnings("unchecked")
	void describesModelExecutorsStartupAndRuntime() {
		assertThat(rest().getForObject("/thread", String.class)).startsWith("request-virtual-");
		Map<String, Object> body = rest().exchange("/actuator/threadmodel", HttpMethod.GET,
				null, JSON).getBody();
		assertThat(body).containsEntry("model", "virtual")
			.containsEntry("modelSource", "app.threads.model")
			.containsEntry("server", "tomcat")
			.containsEntry("netty", null);
		Map<String, Object> requests = (Map<String, Object>) body.get("requests");
		assertThat(requests).containsEntry("model", "virtual")
			.containsEntry("maxConcurrency", 50)
			.containsEntry("poolSize", null)
			.containsKeys("running", "queued", "peakQueued", "submitted", "completed", "rejected", "averageWaitMs",
					"maxWaitMs");
		// the endpoint's own request is running while it is read
		assertThat((Integer) requests.get("running")).isGreaterThanOrEqualTo(1);
		assertThat((Integer) requests.get("completed")).isGreaterThanOrEqualTo(1);
		Map<String, Object> tasks = (Map<String, Object>) body.get("tasks");
		assertThat(tasks).containsEntry("model", "platform").containsEntry("maxPoolSize", 200);
		assertThat((Map<String, Object>) body.get("admission")).containsEntry("mode", "fixed")
			.containsEntry("limit", 50)
			.containsEntry("algorithm", null)
			.containsKey("inFlight");
		Map<String, Object> startup = (Map<String, Object>) body.get("startup");
		long server = ((Number) startup.get("webServerStartedMs")).longValue();
		long refreshed = ((Number) startup.get("contextRefreshedMs")).longValue();
		long ready = ((Number) startup.get("applicationReadyMs")).longValue();
		assertThat(server).isPositive().isLessThanOrEqualTo(refreshed);
		assertThat(refreshed).isLessThanOrEqualTo(ready);
		Map<String, Object> runtime = (Map<String, Object>) body.get("runtime");
		assertThat(runtime).containsEntry("javaVersion", System.getProperty("java.version"))
			.containsEntry("processors", Runtime.getRuntime().availableProcessors());
		assertThat((Map<String, Object>) runtime.get("flavour")).containsEntry("name", "jvm")
			.containsEntry("cds", false)
			.containsEntry("aotCache", false)
			.containsEntry("springAot", false)
			.containsEntry("nativeImage", false);
		if (Runtime.version().feature() >= 24) {
			assertThat((Map<String, Object>) body.get("virtualThreadScheduler")).containsKeys("parallelism",
					"poolSize", "mounted", "queued");
		}
		Map<String, Object> connections = (Map<String, Object>) body.get("connections");
		assertThat((Integer) connections.get("acceptBacklog")).isPositive()
			.isLessThanOrEqualTo((Integer) connections.get("somaxconn"));
	}

	@Test
	void endpointIsReadOnly() {
		ResponseEntity<String> response = rest().postForEntity("/actuator/threadmodel", Map.of("model", "platform"),
				String.class);
		assertThat(response.getStatusCode()).isEqualTo(HttpStatus.METHOD_NOT_ALLOWED);
	}

	@Test
	@SuppressWarnings("unchecked")
	void publishesExecutorMetersTaggedWithModelAndServer() {
		rest().getForObject("/thread", String.class);
		for (String meter : List.of("threadmodel.requests.active", "threadmodel.requests.queued",
				"threadmodel.requests.completed", "threadmodel.requests.rejected", "threadmodel.requests.queue.wait",
				"threadmodel.tasks.active", "threadmodel.tasks.pool.size")) {
			Map<String, Object> body = rest()
				.exchange("/actuator/metrics/" + meter, HttpMethod.GET, null, JSON)
				.getBody();
			assertThat(body).as(meter).containsEntry("name", meter);
			assertThat((List<Map<String, Object>>) body.get("availableTags")).as(meter)
				.anySatisfy((tag) -> assertThat(tag).containsEntry("tag", "server")
					.containsEntry("values", List.of("tomcat")))
				.anySatisfy((tag) -> assertThat(tag).containsEntry("tag", "model"));
		}
		Map<String, Object> completed = rest()
			.exchange("/actuator/metrics/threadmodel.requests.completed?tag=model:virtual",
					HttpMethod.GET, null, JSON)
			.getBody();
		List<Map<String, Object>> measurements = (List<Map<String, Object>>) completed.get("measurements");
		assertThat(((Number) measurements.get(0).get("value")).doubleValue()).isGreaterThanOrEqualTo(1);
	}

	@Test
	void springBootsVirtualThreadAndStartupMetersAreThere() {
		for (String meter : List.of("jvm.threads.virtual.pinned", "application.ready.time",
				"application.started.time")) {
			assertThat(rest().getForEntity("/actuator/metrics/" + meter, String.class).getStatusCode()).as(meter)
				.isEqualTo(HttpStatus.OK);
		}
	}

}
