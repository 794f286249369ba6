package io.github.threadmodel.internal.overload;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Set;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ProbeRequestLineTests {

	private final ProbeRequestLine line = new ProbeRequestLine(
			new ProbePaths(Set.of("/actuator/health", "/actuator/health/liveness")), "/app");

	@Test
	void getOrHeadOfAProbePathEndedByASpaceOrAQueryIsAProbe() {
		assertThat(matches("GET /app/actuator/health/liveness HTTP/1.1\r\nHost: x\r\n\r\n")).isTrue();
		assertThat(matches("HEAD /app/actuator/health HTTP/1.1\r\n")).isTrue();
		assertThat(matches("GET /app/actuator/health?x=y HTTP/1.1\r\n")).isTrue();
	}

	@Test
	void otherMethodsPathsAndVariantsAreNot() {
		assertThat(matches("POST /app/actuator/health HTTP/1.1\r\n")).isFalse();
		assertThat(matches("GET /actuator/health HTTP/1.1\r\n")).as("without the context path").isFalse();
		assertThat(matches("GET /app/actuator/health/ HTTP/1.1\r\n")).isFalse();
		assertThat(matches("GET /app/actuator/healthz HTTP/1.1\r\n")).isFalse();
		assertThat(matches("GET /app/actuator/%68ealth HTTP/1.1\r\n")).isFalse();
		assertThat(matches("GET /app/actuator/health;x=y HTTP/1.1\r\n")).isFalse();
		assertThat(matches("get /app/actuator/health HTTP/1.1\r\n")).isFalse();
	}

	@Test
	void aRequestLineCutBeforeTheEndOfItsTargetIsNot() {
		assertThat(matches("GET /app/actuator/health")).isFalse();
		assertThat(matches("GET /app/actu")).isFalse();
		assertThat(matches("")).isFalse();
	}

	@Test
	void needsNoMoreThanTheLongestMethodTargetAndTheByteAfterIt() {
		String request = "HEAD /app/actuator/health/liveness HTTP/1.1\r\n";
		assertThat(this.line.maxLength()).isEqualTo("HEAD /app/actuator/health/liveness ".length());
		assertThat(matches(request.substring(0, this.line.maxLength()))).isTrue();
	}

	@Test
	void leavesTheBufferAsItFoundIt() {
		ByteBuffer buffer = ByteBuffer.wrap("xxGET /app/actuator/health HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII));
		buffer.position(2);
		assertThat(this.line.matches(buffer)).isTrue();
		assertThat(buffer.position()).isEqualTo(2);
	}

	private boolean matches(String start) {
		return this.line.matches(ByteBuffer.wrap(start.getBytes(StandardCharsets.US_ASCII)));
	}

}
