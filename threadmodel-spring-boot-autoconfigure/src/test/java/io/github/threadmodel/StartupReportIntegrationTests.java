package io.github.threadmodel;

import java.util.Map;

import io.github.threadmodel.testapp.TestServers;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each real server, started, says once what the starter applied, and warns about each of
 * its own thread properties that the user set and the starter makes ineffective, not
 * about other servers' properties.
 */
@ExtendWith(OutputCaptureExtension.class)
class StartupReportIntegrationTests {

	/** A thread property of each server that has one, set to 10 in every test. */
	private static final Map<String, String> THREAD_PROPERTIES = Map.of("tomcat", "server.tomcat.threads.max",
			"jetty", "server.jetty.threads.max", "undertow", "server.undertow.threads.worker");

	@ParameterizedTest(name = "{0}")
	@EnumSource(TestServers.class)
	void saysOnceWhatItAppliedAndWhatItMakesIneffective(TestServers server, CapturedOutput output) {
		String[] properties = { "app.threads.model=platform", "app.threads.platform.max-threads=16",
				"app.threads.platform.queue-capacity=100", "app.threads.connections.accept-backlog=64",
				"server.tomcat.threads.max=10", "server.jetty.threads.max=10", "server.undertow.threads.worker=10",
				"spring.task.execution.pool.max-size=3" };
		try (ConfigurableApplicationContext context = server.start(properties)) {
			assertThat(output).containsOnlyOnce("Thread model platform (app.threads.model) on " + server.id())
				.contains("max-threads 16, min-threads 10, queue-capacity 100, keep-alive 60s" + idleWait(server)
						+ "; accept backlog 64; application tasks follow the server's model, unbounded");
			String own = THREAD_PROPERTIES.get(server.id());
			THREAD_PROPERTIES.forEach((id, property) -> {
				if (property.equals(own)) {
					assertThat(output).containsOnlyOnce(property + "=10 has no effect: the starter's executor runs "
							+ server.id() + "'s requests; set app.threads.platform.max-threads instead (in force: 16)");
				}
				else {
					assertThat(output).doesNotContain(property + "=10 has no effect");
				}
			});
			assertThat(output).containsOnlyOnce("spring.task.execution.pool.max-size has no effect: the starter's "
					+ "application task executor replaces Spring Boot's; it takes app.threads.tasks.model, "
					+ "app.threads.tasks.max-concurrency and app.threads.tasks.queue-timeout");
		}
	}

	@ParameterizedTest(name = "{0}")
	@EnumSource(TestServers.class)
	void saysWhichModelAutoStartsOnAndBothModelsLimits(TestServers server, CapturedOutput output) {
		try (ConfigurableApplicationContext context = server.start("app.threads.model=auto",
				"app.threads.virtual.max-concurrency=50", "app.threads.virtual.queue-timeout=250ms",
				"app.threads.tasks.model=platform")) {
			assertThat(output).containsOnlyOnce("Thread model auto, starting on virtual (app.threads.model=auto) on "
					+ server.id())
				.contains("platform max-threads 200, min-threads 10, queue-capacity unbounded, keep-alive 60s, "
						+ "virtual max-concurrency 50, queue-timeout 250ms" + idleWait(server) + "; accept backlog ")
				.contains("application tasks on platform threads (app.threads.tasks.model)")
				.doesNotContain("has no effect");
		}
	}

	@ParameterizedTest(name = "{0}")
	@EnumSource(TestServers.class)
	void saysTheAdaptiveLimitOfVirtualThreadsByDefault(TestServers server, CapturedOutput output) {
		try (ConfigurableApplicationContext context = server.start("app.threads.model=virtual",
				"app.threads.virtual.adaptive.min-limit=8", "app.threads.virtual.adaptive.max-limit=400")) {
			assertThat(output).containsOnlyOnce("Thread model virtual (app.threads.model) on " + server.id())
				.contains(": adaptive limit 8 to 400 (heap threshold ")
				.contains(" %), queue-timeout 30s" + idleWait(server) + "; accept backlog ");
		}
	}

	/**
	 * What the line says after the limits on Jetty, whose idle timeout (30 s by default)
	 * would close the connection of a request waiting unread: how long requests wait at most.
	 */
	private static String idleWait(TestServers server) {
		return (server == TestServers.JETTY)
				? "; requests wait at most 28s (the connection idle timeout 30s, less a margin)" : "";
	}

}
