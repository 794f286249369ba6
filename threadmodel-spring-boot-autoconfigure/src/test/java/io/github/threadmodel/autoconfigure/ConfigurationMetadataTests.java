package io.github.threadmodel.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import org.springframework.core.io.ClassPathResource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The IDE metadata the configuration processor writes: every {@code app.threads.*}
 * property is there with a description, and the models are offered as values. The
 * property tables of docs/configuration.md and docs/auto.md list exactly those properties,
 * with the metadata's defaults.
 */
class ConfigurationMetadataTests {

	/**
	 * A row of a docs property table: the property, then its default cell. (The tables are
	 * written by hand and checked here rather than generated: their last column says more
	 * than the metadata's descriptions, with links and how the properties play together.)
	 */
	private static final Pattern TABLE_ROW = Pattern.compile("^\\| `(app\\.threads\\.[^`]+)` \\| ([^|]*) \\|",
			Pattern.MULTILINE);

	/** The row of docs/configuration.md that stands for docs/auto.md's table. */
	private static final String AUTO_ROW = "app.threads.auto.*";

	@Test
	@SuppressWarnings("unchecked")
	void everyPropertyIsDescribed() throws Exception {
		Map<String, Object> metadata = metadata();
		List<Map<String, Object>> starter = starterProperties(metadata);
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
					"app.threads.probes.paths", "app.threads.lanes", "app.threads.readiness.refuse-when-shedding",
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

	@Test
	void docsTablesListEveryPropertyWithTheMetadatasDefault() throws Exception {
		Map<String, String> configuration = tableRows("configuration.md");
		assertThat(configuration).containsKey(AUTO_ROW);
		configuration.remove(AUTO_ROW);
		Map<String, String> documented = new LinkedHashMap<>(configuration);
		tableRows("auto.md").forEach((name, cell) -> {
			assertThat(name).as("auto.md's table").startsWith("app.threads.auto.");
			documented.put(name, cell);
		});
		List<Map<String, Object>> starter = starterProperties(metadata());
		assertThat(documented.keySet()).as("the properties of docs/configuration.md and docs/auto.md")
			.containsExactlyInAnyOrderElementsOf(starter.stream().map((property) -> (String) property.get("name")).toList());
		// where the metadata has a default, the docs' default cell starts with it
		assertThat(starter).filteredOn((property) -> property.get("defaultValue") != null)
			.isNotEmpty()
			.allSatisfy((property) -> assertThat(documented.get((String) property.get("name")))
				.as("default of %s in the docs", property.get("name"))
				.startsWith("`" + property.get("defaultValue") + "`"));
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> metadata() throws IOException {
		try (InputStream in = new ClassPathResource("META-INF/spring-configuration-metadata.json").getInputStream()) {
			return new ObjectMapper().readValue(in, Map.class);
		}
	}

	@SuppressWarnings("unchecked")
	private static List<Map<String, Object>> starterProperties(Map<String, Object> metadata) {
		return ((List<Map<String, Object>>) metadata.get("properties")).stream()
			.filter((property) -> ((String) property.get("name")).startsWith("app.threads."))
			.toList();
	}

	/**
	 * The property table rows of a file in docs/ (the tests run in a starter's directory,
	 * next to docs/): each property with its default cell, in the order of the file.
	 */
	private static Map<String, String> tableRows(String file) throws IOException {
		Matcher row = TABLE_ROW.matcher(Files.readString(Path.of("..", "docs", file)));
		Map<String, String> rows = new LinkedHashMap<>();
		while (row.find()) {
			assertThat(rows.put(row.group(1), row.group(2).strip())).as("%s listed twice in %s", row.group(1), file)
				.isNull();
		}
		return rows;
	}

}
