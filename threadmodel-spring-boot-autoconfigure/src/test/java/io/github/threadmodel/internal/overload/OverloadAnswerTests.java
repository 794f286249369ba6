package io.github.threadmodel.internal.overload;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.threadmodel.executor.Refusal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The 503 answer: Retry-After rounded up to whole seconds, JSON only for clients that ask
 * for JSON, and a JSON body that parses.
 */
class OverloadAnswerTests {

	@ParameterizedTest(name = "{0} -> {1}")
	@CsvSource({ "0, 0", "1, 1", "1000, 1", "1001, 2", "1500, 2", "30000, 30" })
	void retryAfterIsRoundedUpToWholeSeconds(long retryAfterMs, String header) {
		assertThat(new OverloadAnswer(Duration.ofMillis(retryAfterMs)).retryAfter()).isEqualTo(header);
	}

	@ParameterizedTest(name = "{0} -> {1}")
	@CsvSource(delimiter = '|', nullValues = "none", value = { "none | false", "*/* | false", "text/plain | false",
			"text/html,application/xhtml+xml,*/*;q=0.8 | false", "application/json | true",
			"text/html, application/json;q=0.9 | true", "application/problem+json | true", "application/* | true",
			"not a media type;; | false" })
	void jsonOnlyForClientsThatAskForIt(String accept, boolean json) {
		assertThat(OverloadAnswer.wantsJson(accept)).isEqualTo(json);
	}

	@Test
	@SuppressWarnings("unchecked")
	void jsonBodySaysWhatHappened() throws Exception {
		byte[] body = new OverloadAnswer(Duration.ofSeconds(2)).body(Refusal.QUEUE_TIMEOUT, true);
		Map<String, Object> json = new ObjectMapper().readValue(body, Map.class);
		assertThat(json).containsEntry("status", 503)
			.containsEntry("error", "Service Unavailable")
			.containsEntry("retryAfter", 2)
			.hasEntrySatisfying("message", (message) -> assertThat((String) message).contains("waited too long"));
	}

	@Test
	void plainTextBodyOtherwise() {
		byte[] body = new OverloadAnswer(Duration.ofSeconds(1)).body(Refusal.QUEUE_FULL, false);
		assertThat(new String(body, StandardCharsets.UTF_8)).contains("queue is full").endsWith("retry after 1 s\n");
	}

}
