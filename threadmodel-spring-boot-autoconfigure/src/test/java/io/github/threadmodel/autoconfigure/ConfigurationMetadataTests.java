package io.github.threadmodel.autoconfigure;

import java.io.InputStream;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import org.springframework.core.io.ClassPathResource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The IDE metadata the configuration processor writes: every {@code app.threads.*}
 * property is there with a description, and the models are offered as values.
 */
class ConfigurationMetadataTests {

	@Test
	@SuppressWarnings("unchecked")
	void everyPropertyIsDescribed() throws Exception {
		Map<String, Object> metadata;
		try (InputStream in = new ClassPathResource("META-INF/spring-configuration-metadata.json").getInputStream()) {
			metadata = new ObjectMapper().readValue(in, Map.class);
		}
		List<Map<String, Object>> properties = (List<Map<String, Object>>) metadata.get("properties");
		List<Map<String, Object>> starter = properties.stream()
			.filter((property) -> ((String) property.get("name")).startsWith("app.threads."))
			.toList();
		assertThat(starter).extracting((property) -> property.get("name"))
			.containsExactlyInAnyOrder("app.threads.model", "app.threads.platform.max-threads",
					"app.threads.platform.min-threads", "app.threads.platform.queue-capacity",
					"app.threads.platform.keep-alive", "app.threads.virtual.max-concurrency",
					"app.threads.tasks.model", "app.threads.tasks.max-concurrency", "app.threads.tasks.queue-timeout",
					"app.threads.connections.accept-backlog",
					"app.threads.switching.enabled", "app.threads.pinning.enabled",
					"app.threads.pinning.threshold", "app.threads.virtual.queue-timeout",
					"app.threads.overload.retry-after", "app.threads.auto.window", "app.threads.auto.agreeing-windows",
					"app.threads.auto.min-dwell", "app.threads.auto.thread-wait", "app.threads.auto.cpu-busy-share",
					"app.threads.auto.scheduling-delay", "app.threads.auto.severe-scheduling-delay",
					"app.threads.virtual.admission", "app.threads.virtual.adaptive.min-limit",
					"app.threads.virtual.adaptive.max-limit", "app.threads.virtual.adaptive.heap-threshold",
					"app.threads.probes.paths", "app.threads.readiness.refuse-when-shedding",
					"app.threads.readiness.shedding-for", "app.threads.readiness.accept-after");
		assertThat(starter).allSatisfy((property) -> assertThat((String) property.get("description")).as("%s", property)
			.isNotBlank());
		assertThat(starter).filteredOn((property) -> property.get("name").equals("app.threads.platform.keep-alive"))
			.singleElement()
			.satisfies((property) -> assertThat(property).containsEntry("type", "java.time.Duration")
				.containsEntry("defaultValue", "60s"));
		List<Map<String, Object>> hints = (List<Map<String, Object>>) metadata.get("hints");
		assertThat(hints).filteredOn((hint) -> hint.get("name").equals("app.threads.model"))
			.singleElement()
			.satisfies((hint) -> assertThat((List<Map<String, Object>>) hint.get("values"))
				.extracting((value) -> value.get("value"))
				.containsExactly("platform", "virtual", "auto"));
	}

}
