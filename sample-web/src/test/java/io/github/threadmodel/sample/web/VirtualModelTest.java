package io.github.threadmodel.sample.web;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

import org.springframework.test.context.TestPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Every endpoint with virtual threads. */
@TestPropertySource(properties = "app.threads.model=virtual")
class VirtualModelTest extends WebEndpointsTestSupport {

	VirtualModelTest() {
		super("virtual");
	}

	/**
	 * On JDK 21 to 23 a virtual thread that sleeps holding a monitor pins its carrier, and the
	 * starter names the call site; from JDK 24 on it unmounts (JEP 491), and nothing pins.
	 */
	@Test
	@EnabledForJreRange(max = JRE.JAVA_23)
	void pinnedIsAPinningSiteOnJdk21() {
		await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
			assertThat(this.http.get("/pinned?ms=50").status()).isEqualTo(200);
			assertThat(this.http.get("/actuator/threadmodel").json().path("pinning").path("sites").toString())
				.contains("PinnedSleep");
		});
	}

}
