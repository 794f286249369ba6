package io.github.threadmodel;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.github.threadmodel.testapp.Http;
import io.github.threadmodel.testapp.LongDownloads;
import io.github.threadmodel.testapp.TestServers;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.EnumSource.Mode;

import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The request limit bounds requests, not the application's tasks: with
 * {@code app.threads.virtual.max-concurrency=100}, 150 long downloads (Spring MVC runs a
 * {@code StreamingResponseBody} on the application task executor) all start, an
 * {@code @Async} call meanwhile answers at once, and the endpoint tells the open
 * asynchronous requests apart from the running ones.
 */
class LongDownloadsIntegrationTests {

	private static final int DOWNLOADS = 150;

	@ParameterizedTest(name = "{0}")
	@EnumSource(value = TestServers.class, names = "NETTY", mode = Mode.EXCLUDE)
	void longDownloadsBeyondTheRequestLimitAllStartAndAsyncAnswersAtOnce(TestServers server) throws Exception {
		try (ConfigurableApplicationContext context = server.start("app.threads.model=virtual",
				"app.threads.virtual.max-concurrency=100", "spring.main.sources=" + LongDownloads.class.getName())) {
			Http http = new Http(context);
			LongDownloads.Gate gate = context.getBean(LongDownloads.Gate.class);
			List<CompletableFuture<HttpResponse<String>>> downloads = new ArrayList<>();
			for (int i = 0; i < DOWNLOADS; i++) {
				downloads.add(http.getAsync("/download", "Accept", "text/plain")); // HTTP/1.1: a connection each
			}
			try {
				await().atMost(Duration.ofSeconds(30)).until(gate::started, (started) -> started == DOWNLOADS);
				long start = System.nanoTime();
				HttpResponse<String> answer = http.getAsync("/async/thread", "Accept", "text/plain")
					.get(10, TimeUnit.SECONDS);
				assertThat(answer.statusCode()).isEqualTo(200);
				assertThat(answer.body()).startsWith("task-virtual-");
				assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
				Map<String, Object> threadModel = http.threadModel();
				Map<String, Object> requests = map(threadModel, "requests");
				assertThat(map(requests, "async")).containsEntry("open", DOWNLOADS);
				assertThat(number(requests, "running")).isLessThan(DOWNLOADS);
				assertThat(map(threadModel, "tasks")).containsEntry("running", DOWNLOADS);
				assertThat(http.metric("threadmodel.requests.async.open")).isEqualTo(DOWNLOADS);
			}
			finally {
				gate.open();
			}
			for (CompletableFuture<HttpResponse<String>> download : downloads) {
				HttpResponse<String> response = download.get(30, TimeUnit.SECONDS);
				assertThat(response.statusCode()).isEqualTo(200);
				assertThat(response.body()).isEqualTo("started\ndone");
			}
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(map(map(http.threadModel(), "requests"), "async"))
					.containsEntry("open", 0)
					.containsEntry("peakOpen", DOWNLOADS));
		}
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> map(Map<String, Object> map, String key) {
		return (Map<String, Object>) map.get(key);
	}

	private static long number(Map<String, Object> map, String key) {
		return ((Number) map.get(key)).longValue();
	}

}
