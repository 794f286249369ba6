package io.github.threadmodel.actuate;

import java.util.List;
import java.util.Map;

import io.github.threadmodel.testapp.Rest;
import io.github.threadmodel.testapp.TestServers;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.test.annotation.DirtiesContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code POST /actuator/threadmodel} on a real Tomcat application.
 */
class ThreadModelEndpointSwitchTests {

	private static final ParameterizedTypeReference<Map<String, Object>> JSON = new ParameterizedTypeReference<>() {
	};

	@Nested
	@SpringBootTest(classes = TestServers.TomcatApp.class, webEnvironment = WebEnvironment.RANDOM_PORT,
			properties = { "app.threads.model=virtual", "management.endpoint.threadmodel.access=unrestricted",
					"management.endpoints.web.exposure.include=threadmodel,metrics" })
	@DirtiesContext
	class WhenAllowed {

		@LocalServerPort
		private int port;

		private Rest rest() {
			return new Rest(this.port);
		}

		@Test
		@SuppressWarnings("unchecked")
		void switchesTheModelAndTellsWhenAndWhoAsked() {
			ResponseEntity<Map<String, Object>> response = post(Map.of("model", "platform", "maxThreads", 8));
			assertThat(response.getStatusCode()).isEqualTo(HttpStatus.OK);
			assertThat(response.getBody()).containsEntry("model", "platform").containsEntry("switchingEnabled", true);
			assertThat((Map<String, Object>) response.getBody().get("requests")).containsEntry("maxPoolSize", 8);
			List<Map<String, Object>> switches = (List<Map<String, Object>>) response.getBody().get("switches");
			assertThat(switches).first()
				.satisfies((change) -> assertThat(change).containsEntry("from", "virtual")
					.containsEntry("to", "platform")
					.containsEntry("requestedBy", "actuator")
					.containsKey("at"));
			assertThat(rest().getForObject("/thread", String.class)).startsWith("request-platform-");
			Map<String, Object> read = rest().exchange("/actuator/threadmodel", HttpMethod.GET, null, JSON)
				.getBody();
			assertThat(read).containsEntry("model", "platform");
			assertThat((List<Object>) read.get("switches")).isEqualTo(switches);
			// the model's own meter follows; the executor's meters stay the same; the switch was counted
			assertThat(meter("threadmodel.model?tag=model:platform").getBody()).contains("\"value\":1.0");
			assertThat(meter("threadmodel.model?tag=model:virtual").getBody()).contains("\"value\":0.0");
			assertThat(meter("executor.pool.max?tag=name:threadModelRequestExecutor").getBody())
				.contains("\"value\":8.0");
			assertThat(meter("threadmodel.switches?tag=from:virtual&tag=to:platform").getBody())
				.contains("\"value\":1.0");
			post(Map.of("model", "virtual"));
			assertThat(rest().getForObject("/thread", String.class)).startsWith("request-virtual-")
				.endsWith("virtual=true");
		}

		@Test
		void unknownModelIsABadRequestThatChangesNothing() {
			String before = model();
			ResponseEntity<String> response = rest().postForEntity("/actuator/threadmodel",
					Map.of("model", "green"), String.class);
			assertThat(response.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
			assertThat(response.getBody()).contains("Unknown thread model 'green'; allowed values: platform, virtual, auto");
			assertThat(model()).isEqualTo(before);
		}

		@Test
		@SuppressWarnings("unchecked")
		void theModelInForceIsNotASwitch() {
			List<Object> before = (List<Object>) rest().exchange("/actuator/threadmodel", HttpMethod.GET, null, JSON)
				.getBody()
				.get("switches");
			ResponseEntity<Map<String, Object>> response = post(Map.of("model", model()));
			assertThat(response.getStatusCode()).isEqualTo(HttpStatus.OK);
			assertThat((List<Object>) response.getBody().get("switches")).isEqualTo(before);
		}

		@Test
		void longBadValueIsAnsweredWithItsStartOnly() {
			String longValue = "x".repeat(900);
			ResponseEntity<String> response = rest().postForEntity("/actuator/threadmodel", Map.of("model", longValue),
					String.class);
			assertThat(response.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
			assertThat(response.getBody()).contains("Unknown thread model '" + "x".repeat(40) + "...'")
				.hasSizeLessThan(200);
		}

		@Test
		void oversizedBodyIsRefusedUnread() {
			String before = model();
			ResponseEntity<String> response = rest().postForEntity("/actuator/threadmodel",
					Map.of("model", "x".repeat(1_000_000)), String.class);
			assertThat(response.getStatusCode().value()).isEqualTo(413);
			assertThat(response.getBody()).isEqualTo("A thread model switch body has at most 1024 bytes\n");
			assertThat(model()).isEqualTo(before);
		}

		@Test
		void badNumberIsABadRequestThatChangesNothing() {
			String before = model();
			ResponseEntity<String> zero = rest().postForEntity("/actuator/threadmodel",
					Map.of("model", "platform", "maxThreads", 0), String.class);
			assertThat(zero.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
			assertThat(zero.getBody()).contains("maxThreads must be a whole number of 1 or more, not 0");
			ResponseEntity<String> text = rest().postForEntity("/actuator/threadmodel",
					Map.of("model", "platform", "maxConcurrency", "many"), String.class);
			assertThat(text.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
			assertThat(text.getBody()).contains("maxConcurrency must be a whole number of 1 or more, not 'many'");
			ResponseEntity<String> missing = rest().postForEntity("/actuator/threadmodel", Map.of(), String.class);
			assertThat(missing.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
			assertThat(missing.getBody()).contains("No thread model given; allowed values: platform, virtual, auto");
			assertThat(model()).isEqualTo(before);
		}

		private ResponseEntity<Map<String, Object>> post(Map<String, Object> body) {
			return rest().exchange("/actuator/threadmodel", HttpMethod.POST, new HttpEntity<>(body), JSON);
		}

		private ResponseEntity<String> meter(String query) {
			return rest().getForEntity("/actuator/metrics/" + query, String.class);
		}

		private String model() {
			return (String) rest().exchange("/actuator/threadmodel", HttpMethod.GET, null, JSON)
				.getBody()
				.get("model");
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

		private Rest rest() {
			return new Rest(this.port);
		}

		@Test
		void switchIsRefused() {
			ResponseEntity<String> response = rest().postForEntity("/actuator/threadmodel",
					Map.of("model", "platform"), String.class);
			assertThat(response.getStatusCode()).isEqualTo(HttpStatus.FORBIDDEN);
			assertThat(response.getBody()).contains("app.threads.switching.enabled=false");
			assertThat(rest().getForObject("/thread", String.class)).startsWith("request-virtual-");
		}

	}

}
