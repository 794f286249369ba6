package io.github.threadmodel.autoconfigure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * A wrong {@code app.threads.*} value stops a real application at startup, and the
 * failure analysis printed names the property, the value, where it came from and what is
 * allowed.
 */
@ExtendWith(OutputCaptureExtension.class)
class InvalidPropertiesStartupTests {

	static Stream<Arguments> invalidValues() {
		return Stream.of(
				Arguments.of("app.threads.model=virtal",
						new String[] { "Invalid value 'virtal' for configuration property 'app.threads.model'",
								"Allowed: platform, virtual or auto; leave the property out for the default." }),
				Arguments.of("app.threads.tasks.model=green",
						new String[] { "Invalid value 'green' for configuration property 'app.threads.tasks.model'",
								"Allowed: platform or virtual; leave the property out to follow the server's model." }),
				Arguments.of("app.threads.tasks.model=auto",
						new String[] { "Invalid value 'auto' for configuration property 'app.threads.tasks.model'",
								"Allowed: platform or virtual" }),
				Arguments.of("app.threads.tasks.max-concurrency=0",
						new String[] { "Invalid value '0' for configuration property 'app.threads.tasks.max-concurrency'",
								"Allowed: a whole number of 1 or more." }),
				Arguments.of("app.threads.tasks.queue-timeout=-1s",
						new String[] { "Invalid value '-1s' for configuration property 'app.threads.tasks.queue-timeout'",
								"a duration of zero or more, for example 500ms, or no value to wait until a task ends" }),
				Arguments.of("spring.task.execution.simple.concurrency-limit=0",
						new String[] {
								"Invalid value '0' for configuration property 'spring.task.execution.simple.concurrency-limit'",
								"a whole number of 1 or more, or -1 for no limit" }),
				Arguments.of("app.threads.lanes.cpu.model=green",
						new String[] { "Invalid value 'green' for configuration property 'app.threads.lanes.cpu.model'",
								"Allowed: platform or virtual." }),
				Arguments.of("app.threads.lanes.cpu.model=auto",
						new String[] { "Invalid value 'auto' for configuration property 'app.threads.lanes.cpu.model'",
								"Allowed: platform or virtual." }),
				Arguments.of("app.threads.lanes.cpu.platform.max-threads=0",
						new String[] {
								"Invalid value '0' for configuration property 'app.threads.lanes.cpu.platform.max-threads'",
								"Allowed: a whole number of 1 or more." }),
				Arguments.of("app.threads.platform.max-threads=0",
						new String[] { "Invalid value '0' for configuration property 'app.threads.platform.max-threads'",
								"Allowed: a whole number of 1 or more." }),
				Arguments.of("app.threads.virtual.max-concurrency=-5",
						new String[] { "Invalid value '-5' for configuration property 'app.threads.virtual.max-concurrency'",
								"a whole number of 1 or more" }),
				Arguments.of("app.threads.platform.min-threads=300",
						new String[] { "Invalid value '300' for configuration property 'app.threads.platform.min-threads'",
								"a whole number from 0 to app.threads.platform.max-threads (200)" }),
				Arguments.of("app.threads.platform.queue-capacity=-1",
						new String[] { "Invalid value '-1' for configuration property 'app.threads.platform.queue-capacity'",
								"a whole number of 0 or more" }),
				Arguments.of("app.threads.platform.keep-alive=-1s",
						new String[] { "Invalid value '-1s' for configuration property 'app.threads.platform.keep-alive'",
								"a duration of zero or more" }),
				Arguments.of("app.threads.virtual.queue-timeout=-1s",
						new String[] { "Invalid value '-1s' for configuration property 'app.threads.virtual.queue-timeout'",
								"a duration of zero or more, for example 200ms" }),
				Arguments.of("app.threads.overload.retry-after=-2s",
						new String[] { "Invalid value '-2s' for configuration property 'app.threads.overload.retry-after'",
								"a duration of zero or more, for example 1s" }),
				Arguments.of("app.threads.readiness.shedding-for=500ms",
						new String[] { "Invalid value '500ms' for configuration property 'app.threads.readiness.shedding-for'",
								"a duration of 1s or more, for example 10s" }),
				Arguments.of("app.threads.readiness.accept-after=0s",
						new String[] { "Invalid value '0s' for configuration property 'app.threads.readiness.accept-after'",
								"a duration of 1s or more, for example 30s" }),
				Arguments.of("app.threads.connections.accept-backlog=0",
						new String[] { "Invalid value '0' for configuration property 'app.threads.connections.accept-backlog'",
								"from property source \"commandLineArgs\"", "Allowed: a whole number of 1 or more." }),
				Arguments.of("app.threads.model=",
						new String[] { "Invalid value '' for configuration property 'app.threads.model'",
								"Allowed: platform, virtual or auto" }),
				Arguments.of("app.threads.platform.keep-alive=999999d",
						new String[] { "Invalid value '999999d' for configuration property 'app.threads.platform.keep-alive'",
								"at most 106751d" }),
				Arguments.of("app.threads.virtual.queue-timeout=999999d",
						new String[] { "Invalid value '999999d' for configuration property 'app.threads.virtual.queue-timeout'",
								"at most 106751d" }),
				Arguments.of("app.threads.auto.window=999999d",
						new String[] { "Invalid value '999999d' for configuration property 'app.threads.auto.window'",
								"at most 106751d" }),
				Arguments.of("app.threads.pinning.threshold=106752d",
						new String[] { "Invalid value '106752d' for configuration property 'app.threads.pinning.threshold'",
								"at most 106751d" }),
				Arguments.of("app.threads.virtual.admission=adaptiv",
						new String[] { "Property: app.threads.virtual.admission", "Value: \"adaptiv\"", "ADAPTIVE",
								"UNLIMITED" }),
				Arguments.of("app.threads.virtual.admission=fixed",
						new String[] { "Invalid value 'fixed' for configuration property 'app.threads.virtual.admission'",
								"fixed only with app.threads.virtual.max-concurrency" }),
				Arguments.of("app.threads.virtual.adaptive.min-limit=0",
						new String[] {
								"Invalid value '0' for configuration property 'app.threads.virtual.adaptive.min-limit'",
								"a whole number of 1 or more" }),
				Arguments.of("app.threads.virtual.adaptive.max-limit=5",
						new String[] {
								"Invalid value '5' for configuration property 'app.threads.virtual.adaptive.max-limit'",
								"at least app.threads.virtual.adaptive.min-limit (20)" }),
				Arguments.of("app.threads.virtual.adaptive.heap-threshold=1.5",
						new String[] {
								"Invalid value '1.5' for configuration property 'app.threads.virtual.adaptive.heap-threshold'",
								"a number above 0 and at most 1" }),
				Arguments.of("app.threads.pinning.threshold=-20ms",
						new String[] { "Invalid value '-20ms' for configuration property 'app.threads.pinning.threshold'",
								"a duration of zero or more, for example 20ms" }));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("invalidValues")
	void startupStopsWithAnExplanation(String property, String[] explanation, CapturedOutput output) {
		SpringApplication application = new SpringApplication(App.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		assertThatException().isThrownBy(() -> application.run("--" + property));
		assertThat(output).contains("APPLICATION FAILED TO START").contains(explanation);
		// the values as the documentation writes them, never Java's constants
		assertThat(output).doesNotContain("PLATFORM").doesNotContain("VIRTUAL");
	}

	@Test
	void aMisspelledModelNamesEveryOtherPropertySourceThatSetsItToo(@TempDir Path config, CapturedOutput output)
			throws IOException {
		Path properties = Files.writeString(config.resolve("application.properties"), "app.threads.model=platform\n");
		SpringApplication application = new SpringApplication(App.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		assertThatException().isThrownBy(() -> application.run("--app.threads.model=virtal",
				"--spring.config.additional-location=file:" + properties.toAbsolutePath()));
		assertThat(output).contains(
				"Invalid value 'virtal' for configuration property 'app.threads.model' (originating from "
						+ "'\"app.threads.model\" from property source \"commandLineArgs\"')",
				"Allowed: platform, virtual or auto; leave the property out for the default.",
				"Additionally, this property is also set in the following property source:",
				"application.properties]' via location 'file:", "with the value 'platform'");
	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class App {

	}

}
