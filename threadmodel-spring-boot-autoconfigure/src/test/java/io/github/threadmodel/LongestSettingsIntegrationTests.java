package io.github.threadmodel;

import java.util.Map;

import io.github.threadmodel.testapp.Http;
import io.github.threadmodel.testapp.TestServers;
import org.junit.jupiter.api.Test;

import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The longest durations the settings take (106751 days) start a real server that serves,
 * reads its endpoint and switches in both directions: no overflow anywhere.
 */
class LongestSettingsIntegrationTests {

	@Test
	void longestDurationsStartServeAndSwitch() {
		try (ConfigurableApplicationContext context = TestServers.TOMCAT.start("app.threads.model=platform",
				"app.threads.platform.keep-alive=106751d", "app.threads.virtual.max-concurrency=10",
				"app.threads.virtual.queue-timeout=106751d", "app.threads.pinning.threshold=106751d",
				"app.threads.overload.retry-after=106751d", "management.endpoint.threadmodel.access=unrestricted")) {
			Http http = new Http(context);
			assertThat(http.get("/thread")).startsWith("request-platform-");
			assertThat(http.postThreadModel("{\"model\":\"virtual\"}").statusCode()).isEqualTo(200);
			assertThat(http.getOnNewConnection("/thread")).startsWith("request-virtual-");
			assertThat(http.postThreadModel("{\"model\":\"platform\"}").statusCode()).isEqualTo(200);
			Map<String, Object> body = http.threadModel();
			assertThat(body).containsEntry("model", "platform");
			assertThat(body.get("pinning")).isNotNull();
		}
	}

}
