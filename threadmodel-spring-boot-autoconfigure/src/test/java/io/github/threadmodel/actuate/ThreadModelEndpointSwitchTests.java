package io.github.threadmodel.actuate;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;

import io.github.threadmodel.testapp.Http;
import io.github.threadmodel.testapp.TestServers;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code POST /actuator/threadmodel} on a real Tomcat application.
 */
class ThreadModelEndpointSwitchTests {

	@Nested
	@SpringBootTest(classes = TestServers.TomcatApp.class, webEnvironment = WebEnvironment.RANDOM_PORT,
			properties = { "app.threads.model=virtual", "management.endpoint.threadmodel.access=unrestricted",
					"management.endpoints.web.exposure.include=threadmodel,metrics" })
	@DirtiesContext
	class WhenAllowed {

		@LocalServerPort
		private int port;

		private Http http() {
			return new Http(this.port);
		}

		@Test
		@SuppressWarnings("unchecked")
		void switchesTheModelAndTellsWhenAndWhoAsked() {
			HttpResponse<String> response = http().postThreadModel(Map.of("model", "platform", "maxThreads", 8));
			assertThat(response.statusCode()).isEqualTo(200);
			Map<String, Object> body = Http.jsonObject(response);
			assertThat(body).containsEntry("model", "platform").containsEntry("switchingEnabled", true);
			assertThat((Map<String, Object>) body.get("requests")).containsEntry("maxPoolSize", 8);
			List<Map<String, Object>> switches = (List<Map<String, Object>>) body.get("switches");
			assertThat(switches).first()
				.satisfies((change) -> assertThat(change).containsEntry("from", "virtual")
					.containsEntry("to", "platform")
					.containsEntry("requestedBy", "actuator")
					.containsKey("at"));
			assertThat(http().get("/thread")).startsWith("request-platform-");
			Map<String, Object> read = http().threadModel();
			assertThat(read).containsEntry("model", "platform");
			assertThat((List<Object>) read.get("switches")).isEqualTo(switches);
			// the model's own meter follows; the executor's meters stay the same; the switch was counted
			assertThat(meter("threadmodel.model?tag=model:platform").body()).contains("\"value\":1.0");
			assertThat(meter("threadmodel.model?tag=model:virtual").body()).contains("\"value\":0.0");
			assertThat(meter("executor.pool.max?tag=name:threadModelRequestExecutor").body())
				.contains("\"value\":8.0");
			assertThat(meter("threadmodel.switches?tag=from:virtual&tag=to:platform").body())
				.contains("\"value\":1.0");
			http().postThreadModel(Map.of("model", "virtual"));
			assertThat(http().get("/thread")).startsWith("request-virtual-")
				.endsWith("virtual=true");
		}

		@Test
		void unknownModelIsABadRequestThatChangesNothing() {
			String before = model();
			HttpResponse<String> response = http().postThreadModel(Map.of("model", "green"));
			assertThat(response.statusCode()).isEqualTo(400);
			assertThat(response.body()).contains("Unknown thread model 'green'; allowed values: platform, virtual, auto");
			assertThat(model()).isEqualTo(before);
		}

		@Test
		@SuppressWarnings("unchecked")
		void theModelInForceIsNotASwitch() {
			List<Object> before = (List<Object>) http().threadModel().get("switches");
			HttpResponse<String> response = http().postThreadModel(Map.of("model", model()));
			assertThat(response.statusCode()).isEqualTo(200);
			assertThat((List<Object>) Http.jsonObject(response).get("switches")).isEqualTo(before);
		}

		@Test
		void longBadValueIsAnsweredWithItsStartOnly() {
			String longValue = "x".repeat(900);
			HttpResponse<String> response = http().postThreadModel(Map.of("model", longValue));
			assertThat(response.statusCode()).isEqualTo(400);
			assertThat(response.body()).contains("Unknown thread model '" + "x".repeat(40) + "...'")
				.hasSizeLessThan(200);
		}

		@Test
		void oversizedBodyIsRefusedUnread() {
			String before = model();
			HttpResponse<String> response = http().postThreadModel(Map.of("model", "x".repeat(1_000_000)));
			assertThat(response.statusCode()).isEqualTo(413);
			assertThat(response.body()).isEqualTo("A thread model switch body has at most 1024 bytes\n");
			assertThat(model()).isEqualTo(before);
		}

		@Test
		void badNumberIsABadRequestThatChangesNothing() {
			String before = model();
			HttpResponse<String> zero = http().postThreadModel(Map.of("model", "platform", "maxThreads", 0));
			assertThat(zero.statusCode()).isEqualTo(400);
			assertThat(zero.body()).contains("maxThreads must be a whole number of 1 or more, not 0");
			HttpResponse<String> text = http().postThreadModel(Map.of("model", "platform", "maxConcurrency", "many"));
			assertThat(text.statusCode()).isEqualTo(400);
			assertThat(text.body()).contains("maxConcurrency must be a whole number of 1 or more, not 'many'");
			HttpResponse<String> missing = http().postThreadModel(Map.of());
			assertThat(missing.statusCode()).isEqualTo(400);
			assertThat(missing.body()).contains("No thread model given; allowed values: platform, virtual, auto");
			assertThat(model()).isEqualTo(before);
		}

		private HttpResponse<String> meter(String query) {
			return http().send("/actuator/metrics/" + query);
		}

		private String model() {
			return (String) http().threadModel().get("model");
		}

	}

	@Nested
	@SpringBootTest(classes = TestServers.TomcatApp.class, webEnvironment = WebEnvironment.RANDOM_PORT,
			properties = { "app.threads.model=virtual", "app.threads.switching.enabled=false",
					"management.endpoint.threadmodel.access=unrestricted",
					"management.endpoints.web.exposure.include=threadmodel" })
	@DirtiesContext
	class WhenForbiddenByProperty {

		@LocalServerPort
		private int port;

		private Http http() {
			return new Http(this.port);
		}

		@Test
		void switchIsRefused() {
			HttpResponse<String> response = http().postThreadModel(Map.of("model", "platform"));
			assertThat(response.statusCode()).isEqualTo(403);
			assertThat(response.body()).contains("app.threads.switching.enabled=false");
			assertThat(http().get("/thread")).startsWith("request-virtual-");
		}

	}

}
