package io.github.threadmodel.autoconfigure;

import java.net.http.HttpResponse;

import io.github.threadmodel.testapp.Http;
import io.github.threadmodel.testapp.TestServers;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A switch body over {@link SwitchBodyLimit#MAX_BYTES} is refused with 413 on each server,
 * with the endpoints on a management port of their own, whether the client says its length
 * or sends it chunked (the refusal reaches the client every time); one at the limit is read.
 */
class SwitchBodyLimitTests {

	/**
	 * How many oversized chunked bodies are sent: the refusal must reach the client each time
	 * (a server that closes with the body unread lost about 1 in 100 to a reset).
	 */
	private static final int REFUSALS = 200;

	@ParameterizedTest(name = "{0}")
	@EnumSource(TestServers.class)
	void bodyOverTheLimitIsRefused(TestServers server) {
		try (ConfigurableApplicationContext context = server.start("app.threads.model=platform",
				"management.endpoint.threadmodel.access=unrestricted")) {
			Http http = new Http(context);
			HttpResponse<String> oversized = http.postThreadModel(body(SwitchBodyLimit.MAX_BYTES + 1));
			assertThat(oversized.statusCode()).isEqualTo(413);
			assertThat(oversized.body()).isEqualTo("A thread model switch body has at most 1024 bytes\n");
			HttpResponse<String> atTheLimit = http.postThreadModel(body(SwitchBodyLimit.MAX_BYTES));
			assertThat(atTheLimit.statusCode()).as(atTheLimit.body()).isEqualTo(400);
			assertThat(atTheLimit.body()).contains("Unknown thread model 'xxxx");
			for (int i = 0; i < REFUSALS; i++) {
				HttpResponse<String> chunked = http.postThreadModelChunked(body(100_000));
				assertThat(chunked.statusCode()).as(chunked.body()).isEqualTo(413);
			}
			HttpResponse<String> chunkedAtTheLimit = http.postThreadModelChunked(body(SwitchBodyLimit.MAX_BYTES));
			assertThat(chunkedAtTheLimit.statusCode()).as(chunkedAtTheLimit.body()).isEqualTo(400);
			assertThat(http.postThreadModelChunked("{\"model\":\"virtual\"}").statusCode()).isEqualTo(200);
			assertThat(http.threadModel()).containsEntry("model", "virtual");
		}
	}

	/** A switch body of exactly the given length in bytes, with an unknown model. */
	private static String body(int bytes) {
		String start = "{\"model\":\"";
		String end = "\"}";
		return start + "x".repeat(bytes - start.length() - end.length()) + end;
	}

}
