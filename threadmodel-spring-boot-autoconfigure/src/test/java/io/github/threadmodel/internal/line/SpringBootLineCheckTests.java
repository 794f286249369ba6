package io.github.threadmodel.internal.line;

import io.github.threadmodel.testapp.TestServers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The check each starter registers: run on both lines, each time the starter of the other
 * line is the wrong one.
 */
@ExtendWith(OutputCaptureExtension.class)
class SpringBootLineCheckTests {

	private final ClassLoader classLoader = getClass().getClassLoader();

	@Test
	void detectsTheLineTheTestsRunOn() {
		assertThat(SpringBootLine.running(this.classLoader)).isEqualTo(TestServers.LINE);
		assertThat(SpringBootVersion.getVersion()).startsWith((TestServers.LINE == SpringBootLine.BOOT_4) ? "4." : "3.5.");
	}

	@Test
	void thisLinesStarterStarts() {
		try (var context = new SpringApplicationBuilder(TestServers.TestApp.class).initializers(new LineCheck(TestServers.LINE))
			.run("--server.port=0", "--spring.main.banner-mode=off")) {
			assertThat(context.isRunning()).isTrue();
		}
	}

	@Test
	void otherLinesStarterStopsStartupNamingTheVersionAndTheArtifactToUse(CapturedOutput output) {
		SpringBootLine other = (TestServers.LINE == SpringBootLine.BOOT_4) ? SpringBootLine.BOOT_3 : SpringBootLine.BOOT_4;
		SpringApplicationBuilder application = new SpringApplicationBuilder(TestServers.TestApp.class)
			.initializers(new LineCheck(other));
		assertThatExceptionOfType(WrongSpringBootLineException.class)
			.isThrownBy(() -> application.run("--server.port=0", "--spring.main.banner-mode=off"));
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("%s is for Spring Boot %s, but the application runs Spring Boot %s.".formatted(other.artifactId(),
					other.versions(), SpringBootVersion.getVersion()))
			.contains("Replace the dependency io.github.threadmodel:%s with io.github.threadmodel:%s"
				.formatted(other.artifactId(), TestServers.LINE.artifactId()))
			.doesNotContain("NoClassDefFoundError");
	}

	private static final class LineCheck extends SpringBootLineCheck {

		LineCheck(SpringBootLine line) {
			super(line);
		}

	}

}
