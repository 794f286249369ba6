package io.github.threadmodel.actuate;

import java.util.List;
import java.util.Map;

import io.github.threadmodel.testapp.Http;
import io.github.threadmodel.testapp.TestServers;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code /actuator/threadmodel} and the meters of a real Tomcat application.
 */
@SpringBootTest(classes = TestServers.TomcatApp.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "app.threads.model=virtual", "app.threads.tasks.model=platform",
				"app.threads.virtual.max-concurrency=50",
				"management.endpoints.web.exposure.include=threadmodel,metrics" })
class ThreadModelEndpointWebTests {

	@LocalServerPort
	private int port;

	private Http http() {
		return new Http(this.port);
	}

	@Test
	@SuppressWarnings("unchecked")
	void describesModelExecutorsStartupAndRuntime() {
		assertThat(http().get("/thread")).startsWith("request-virtual-");
		Map<String, Object> body = http().threadModel();
		assertThat(body).containsEntry("model", "virtual")
			.containsEntry("modelSource", "app.threads.model")
			.containsEntry("server", "tomcat")
			.containsEntry("netty", null);
		Map<String, Object> requests = (Map<String, Object>) body.get("requests");
		assertThat(requests).containsEntry("model", "virtual")
			.containsEntry("maxConcurrency", 50)
			.containsEntry("poolSize", null)
			.containsKeys("running", "queued", "peakQueued", "submitted", "completed", "rejected", "queueWait",
					"carrierWait", "executorTasks");
		// the endpoint's own request is running while it is read
		assertThat((Integer) requests.get("running")).isGreaterThanOrEqualTo(1);
		assertThat((Integer) requests.get("completed")).isGreaterThanOrEqualTo(1);
		Map<String, Object> tasks = (Map<String, Object>) body.get("tasks");
		// application tasks have a pool of their own, without a limit unless app.threads.tasks.max-concurrency
		assertThat(tasks).containsEntry("model", "platform")
			.containsEntry("maxPoolSize", null)
			.containsEntry("maxConcurrency", null);
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
		assertThat(http().postThreadModel(Map.of("model", "platform")).statusCode()).isEqualTo(405);
	}

	@Test
	@SuppressWarnings("unchecked")
	void publishesMetersWithoutAModelTagExceptTheModelItself() {
		http().get("/thread");
		for (String meter : List.of("threadmodel.requests.received", "threadmodel.requests.completed",
				"threadmodel.requests.rejected", "threadmodel.switches", "threadmodel.queue.wait",
				"threadmodel.carrier.wait")) {
			assertThat(tags(meter)).as(meter)
				.anySatisfy((tag) -> assertThat(tag).containsEntry("tag", "server")
					.containsEntry("values", List.of("tomcat")))
				.noneSatisfy((tag) -> assertThat(tag).containsEntry("tag", "model"));
		}
		for (String meter : List.of("executor.active", "executor.queued", "executor.pool.size", "executor.pool.max",
				"executor.completed")) {
			// the probes' lane too (Micrometer's ExecutorServiceMetrics): one tag key, as Prometheus needs
			assertThat(tags(meter)).as(meter)
				.containsExactly(Map.of("tag", "name", "values",
						List.of("applicationTaskExecutor", "threadModelProbeLane", "threadModelRequestExecutor")));
		}
		assertThat(tags("threadmodel.model")).anySatisfy((tag) -> assertThat(tag).containsEntry("tag", "model")
			.containsEntry("values", List.of("platform", "virtual")));
		assertThat(value("threadmodel.model?tag=model:virtual")).isEqualTo(1);
		assertThat(value("threadmodel.model?tag=model:platform")).isZero();
		assertThat(value("threadmodel.requests.received")).isGreaterThanOrEqualTo(1);
		assertThat(value("executor.pool.max?tag=name:threadModelRequestExecutor")).isEqualTo(50);
		// no limit: NaN, which the metrics endpoint writes as text
		assertThat(measurement("executor.pool.max?tag=name:applicationTaskExecutor")).isEqualTo("NaN");
	}

	@SuppressWarnings("unchecked")
	private List<Map<String, Object>> tags(String meter) {
		Map<String, Object> body = http().json("/actuator/metrics/" + meter);
		assertThat(body).as(meter).containsEntry("name", meter);
		return ((List<Map<String, Object>>) body.get("availableTags")).stream()
			.map((tag) -> Map.of("tag", tag.get("tag"), "values", ((List<String>) tag.get("values")).stream().sorted().toList()))
			.toList();
	}

	private double value(String query) {
		return ((Number) measurement(query)).doubleValue();
	}

	@SuppressWarnings("unchecked")
	private Object measurement(String query) {
		Map<String, Object> body = http().json("/actuator/metrics/" + query);
		List<Map<String, Object>> measurements = (List<Map<String, Object>>) body.get("measurements");
		return measurements.get(0).get("value");
	}

	@Test
	void springBootsVirtualThreadAndStartupMetersAreThere() {
		for (String meter : List.of("jvm.threads.virtual.pinned", "application.ready.time",
				"application.started.time")) {
			assertThat(http().send("/actuator/metrics/" + meter).statusCode()).as(meter).isEqualTo(200);
		}
	}

}
