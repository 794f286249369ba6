package io.github.threadmodel;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import io.github.threadmodel.testapp.Http;
import io.github.threadmodel.testapp.TestServers;
import io.github.threadmodel.testapp.ThreadController;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A burst of ten times the request limit against each real server: the requests beyond
 * the limit get 503 with Retry-After at once, while the admitted ones are still running;
 * the admitted ones then get 200; no connection fails, the limits held, the endpoint and
 * the meter count the 503s, the refusals leave no error in the log, and the server serves
 * normally afterwards.
 */
@ExtendWith(OutputCaptureExtension.class)
class OverloadIntegrationTests {

	private static final String JSON = "application/json";

	@ParameterizedTest(name = "{0}")
	@EnumSource(TestServers.class)
	void platformQueueFullIsAnswered503(TestServers server, CapturedOutput output) throws Exception {
		try (ConfigurableApplicationContext context = server.start("app.threads.model=platform",
				"app.threads.platform.max-threads=4", "app.threads.platform.queue-capacity=4",
				"app.threads.overload.retry-after=1500ms")) {
			// Exactly 8 admitted (asserted in burst): 4 running and no more than 4 queued.
			Map<String, Object> requests = burst(context, 80, 8, "2");
			assertThat(number(requests, "peakRunning")).isLessThanOrEqualTo(4);
			assertThat(number(requests, "rejectedTimedOut")).isZero();
		}
		assertThat(output).doesNotContain("Exception in thread").doesNotContain(" ERROR ");
	}

	@ParameterizedTest(name = "{0}")
	@EnumSource(TestServers.class)
	void virtualQueueTimeoutIsAnswered503(TestServers server, CapturedOutput output) throws Exception {
		try (ConfigurableApplicationContext context = server.start("app.threads.model=virtual",
				"app.threads.virtual.max-concurrency=4", "app.threads.virtual.queue-timeout=200ms")) {
			Map<String, Object> requests = burst(context, 40, 4, "1");
			assertThat(number(requests, "peakRunning")).isLessThanOrEqualTo(4);
			assertThat(number(requests, "rejectedTimedOut")).isEqualTo(number(requests, "rejected"));
		}
		assertThat(output).doesNotContain("Exception in thread").doesNotContain(" ERROR ");
	}

	/**
	 * Sends {@code total} requests that block until released, half of them asking for
	 * JSON. Checks that all but the {@code admitted} ones are answered 503 while the
	 * admitted ones still block, then releases those and checks their 200s.
	 * @return the request executor's figures after the burst
	 */
	private Map<String, Object> burst(ConfigurableApplicationContext context, int total, int admitted,
			String retryAfter) throws Exception {
		Http http = new Http(context);
		ThreadController controller = context.getBean(ThreadController.class);
		http.get("/thread");
		// A response can arrive before its task has ended: start the burst with every slot free.
		awaitTrue(() -> number(requests(http), "running") == 0 && number(requests(http), "queued") == 0,
				() -> "executor never idle: " + requests(http));
		long rejectedBefore = number(requests(http), "rejected");
		double meterBefore = http.metric("threadmodel.requests.rejected");
		List<CompletableFuture<HttpResponse<String>>> responses = new ArrayList<>();
		for (int i = 0; i < total; i++) {
			responses.add((i % 2 == 0) ? http.getAsync("/block", "Accept", JSON) : http.getAsync("/block"));
		}
		int refused = total - admitted;
		awaitTrue(() -> responses.stream().filter(CompletableFuture::isDone).count() == refused,
				() -> "answered: " + responses.stream().filter(CompletableFuture::isDone).count() + " of " + refused
						+ ", executor: " + requests(http));
		// The 503s came while every admitted request was still blocked: they did not wait for them.
		List<HttpResponse<String>> answered = responses.stream().filter(CompletableFuture::isDone)
			.map(CompletableFuture::join)
			.toList();
		assertThat(answered).allSatisfy((response) -> {
			assertThat(response.statusCode()).isEqualTo(503);
			assertThat(response.headers().firstValue("Retry-After")).hasValue(retryAfter);
		});
		assertThat(answered).filteredOn((response) -> response.request().headers().firstValue("Accept").isPresent())
			.isNotEmpty()
			.allSatisfy((response) -> assertThat(response.body()).startsWith("{\"status\":503,")
				.contains("\"error\":\"Service Unavailable\"", "\"retryAfter\":" + retryAfter));
		assertThat(answered).filteredOn((response) -> response.request().headers().firstValue("Accept").isEmpty())
			.isNotEmpty()
			.allSatisfy((response) -> assertThat(response.body()).startsWith("The server is busy")
				.doesNotContain("{"));
		// A 503 is counted once it is written, which its client may see first.
		awaitTrue(() -> number(requests(http), "rejected") - rejectedBefore == refused
				&& http.metric("threadmodel.requests.rejected") - meterBefore == refused,
				() -> "rejected: " + (number(requests(http), "rejected") - rejectedBefore) + ", meter: "
						+ (http.metric("threadmodel.requests.rejected") - meterBefore) + ", expected " + refused);
		controller.openGate();
		for (CompletableFuture<HttpResponse<String>> response : responses) {
			HttpResponse<String> done = response.get(60, TimeUnit.SECONDS); // no connection error
			if (done.statusCode() == 200) {
				assertThat(done.body()).isEqualTo("released");
			}
		}
		assertThat(responses).filteredOn((response) -> response.join().statusCode() == 200).hasSize(admitted);
		for (int i = 0; i < 10; i++) {
			assertThat(http.get("/thread")).startsWith("request-");
		}
		return requests(http);
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> requests(Http http) {
		return (Map<String, Object>) http.threadModel().get("requests");
	}

	private static void awaitTrue(BooleanSupplier condition, Supplier<String> info) {
		await().atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(20))
			.untilAsserted(() -> assertThat(condition.getAsBoolean()).as(info).isTrue());
	}

	private static long number(Map<String, Object> map, String key) {
		return ((Number) map.get(key)).longValue();
	}

}
