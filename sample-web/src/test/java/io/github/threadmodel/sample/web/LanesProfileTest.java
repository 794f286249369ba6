package io.github.threadmodel.sample.web;

import io.github.threadmodel.sample.support.Http;
import org.junit.jupiter.api.Test;

import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.TestPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every endpoint with virtual threads and the profile lanes, whose CPU route and pinning route run on their lanes'
 * platform threads.
 */
@ActiveProfiles("lanes")
@TestPropertySource(properties = "app.threads.model=virtual")
class LanesProfileTest extends WebEndpointsTestSupport {

	LanesProfileTest() {
		super("virtual");
	}

	@Test
	void theLanedCpuRouteRunsOnTheLanesPlatformThreads() {
		Http.Reply reply = this.http.get("/lanes/cpu?ms=5");
		assertThat(reply.status()).isEqualTo(200);
		assertThat(reply.body()).contains("\"thread\":\"lane-cpu-platform-").contains("\"virtual\":false");
	}

	@Test
	void theLanedPinningRouteRunsOnTheLanesPlatformThreads() {
		Http.Reply reply = this.http.get("/lanes/pinned?ms=5");
		assertThat(reply.status()).isEqualTo(200);
		assertThat(reply.body()).contains("\"thread\":\"lane-pinning-platform-").contains("\"virtual\":false");
	}

}
