package io.github.threadmodel.internal.overload;

import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

class ProbeLaneTests {

	@Test
	void probePathsAreTakenUnderTheContextPathAsSpringBootCleansIt() {
		MockEnvironment environment = new MockEnvironment().withProperty("server.servlet.context-path", "/app/");
		try (ProbeLane lane = ProbeLane.of(environment, List.of("/ping"))) {
			assertThat(lane.isProbe("GET", "/app/actuator/health/liveness")).isTrue();
			assertThat(lane.isProbe("HEAD", "/app/ping")).isTrue();
			assertThat(lane.isProbe("GET", "/actuator/health")).isFalse();
			assertThat(lane.isProbe("POST", "/app/actuator/health")).isFalse();
		}
	}

	@Test
	void aContextPathOfASlashIsTheRoot() {
		MockEnvironment environment = new MockEnvironment().withProperty("server.servlet.context-path", "/");
		try (ProbeLane lane = ProbeLane.of(environment, List.of())) {
			assertThat(lane.isProbe("GET", "/actuator/health")).isTrue();
		}
	}

}
