package io.github.threadmodel.internal.overload;

import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The probe paths come from Spring Boot's own properties and match exactly.
 */
class ProbePathsTests {

	@Test
	void byDefaultTheHealthEndpointAndTheProbeGroups() {
		ProbePaths paths = ProbePaths.of(new MockEnvironment(), List.of());
		assertThat(paths.paths()).containsExactlyInAnyOrder("/actuator/health", "/actuator/health/liveness",
				"/actuator/health/readiness");
	}

	@Test
	void followsTheBasePathTheHealthMappingTheServletPathAndTheGroups() {
		MockEnvironment environment = new MockEnvironment().withProperty("management.endpoints.web.base-path", "/manage/")
			.withProperty("management.endpoints.web.path-mapping.health", "status")
			.withProperty("spring.mvc.servlet.path", "/api")
			.withProperty("management.endpoint.health.group.custom.include", "ping")
			.withProperty("management.endpoint.health.group.liveness.additional-path", "server:/livez");
		ProbePaths paths = ProbePaths.of(environment, List.of("/ready"));
		assertThat(paths.paths()).containsExactlyInAnyOrder("/api/manage/status", "/api/manage/status/liveness",
				"/api/manage/status/readiness", "/api/manage/status/custom", "/api/livez", "/ready");
	}

	@Test
	void aRootBasePathPutsTheHealthEndpointAtTheRoot() {
		ProbePaths paths = ProbePaths.of(new MockEnvironment().withProperty("management.endpoints.web.base-path", "/"),
				List.of());
		assertThat(paths.paths()).contains("/health", "/health/liveness");
	}

	@Test
	void matchesOnlyTheExactPathAfterTheContextPath() {
		ProbePaths paths = new ProbePaths(java.util.Set.of("/actuator/health"));
		assertThat(paths.matches("/app/actuator/health", "/app")).isTrue();
		assertThat(paths.matches("/actuator/health", "")).isTrue();
		assertThat(paths.matches("/actuator/health/", "")).isFalse();
		assertThat(paths.matches("/actuator/%68ealth", "")).isFalse();
		assertThat(paths.matches("/actuator/health;a=b", "")).isFalse();
		assertThat(paths.matches("/other/actuator/health", "/app")).isFalse();
	}

}
