package io.github.threadmodel.sample.support;

import java.util.List;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import org.springframework.aot.AotDetector;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

import static io.github.threadmodel.sample.support.UserAssertions.assertUser;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every endpoint over real HTTP, the same checks in both samples and both thread models. A subclass per sample
 * says which server it runs on and where {@code /products} finishes its calls; below it, a class per model sets
 * {@code app.threads.model} (and, for the *IT classes, the profiles of the real MariaDB and Redis). The greeting
 * and the simulated back ends are shortened ({@link TestRanges}); metrics export is on, as in the application,
 * for /actuator/prometheus.
 * <p>
 * Metrics export is turned on by property rather than annotation, so that the class compiles on both Boot lines:
 * Boot 3.5's test support switches export off unless {@code spring.test.observability.auto-configure} is true
 * ({@code @AutoConfigureObservability} no longer exists in Boot 4), Boot 4's does so only when
 * spring-boot-micrometer-metrics-test is on the class path, unless {@code spring.test.metrics.export} is true
 * ({@code @AutoConfigureMetrics}). Each line ignores the other's property.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "sample.greetings.delay=200ms", TestRanges.DATABASE_MIN, TestRanges.DATABASE_MAX,
				TestRanges.INVENTORY_MIN, TestRanges.INVENTORY_MAX, TestRanges.RECOMMENDATIONS_MIN,
				TestRanges.RECOMMENDATIONS_MAX, TestRanges.PRICES_MIN, TestRanges.PRICES_MAX,
				"spring.test.observability.auto-configure=true", "spring.test.metrics.export=true",
				"management.endpoint.threadmodel.access=unrestricted" })
public abstract class EndpointsTestSupport extends HttpTestSupport {

	private static final Pattern GREETING = Pattern.compile("(Hello|Hi|Olá|Oi|Hallo) (.+)!");

	private final String model;

	/** @param model "platform" or "virtual": what the subclass sets {@code app.threads.model} to */
	protected EndpointsTestSupport(String model) {
		this.model = model;
	}

	protected final String model() {
		return this.model;
	}

	/** The server that {@code /actuator/threadmodel} must name. */
	protected abstract String expectedServer();

	/** How the name of the thread that finished each of the four {@code /products} calls starts. */
	protected abstract String productCallThreadPrefix();

	@Test
	void greetingsWaitTheDelayAndGreetTheWorldByDefault() {
		Http.Reply reply = this.http.get("/greetings");
		assertThat(reply.status()).isEqualTo(200);
		assertThat(reply.contentType()).startsWith("text/plain");
		assertThat(reply.body()).matches(GREETING).endsWith(" World!");
		assertThat(reply.millis()).isGreaterThanOrEqualTo(200);
	}

	@Test
	void greetingsUseTheName() {
		Http.Reply reply = this.http.get("/greetings?name=Ana");
		assertThat(reply.status()).isEqualTo(200);
		assertThat(reply.body()).matches(GREETING).endsWith(" Ana!");
		assertThat(reply.millis()).isGreaterThanOrEqualTo(200);
	}

	@Test
	void pingAnswersOne() {
		Http.Reply reply = this.http.get("/ping");
		assertThat(reply.status()).isEqualTo(200);
		assertThat(reply.contentType()).startsWith("text/plain");
		assertThat(reply.body()).isEqualTo("1");
	}

	@Test
	void healthIsOk() {
		Http.Reply reply = this.http.get("/health");
		assertThat(reply.status()).isEqualTo(200);
		assertThat(reply.contentType()).startsWith("application/json");
		assertThat(reply.body()).isEqualTo("{\"health\":\"ok\"}");
	}

	@Test
	void userOneComesFromTheDatabase() {
		Http.Reply reply = this.http.get("/users/1");
		assertThat(reply.status()).isEqualTo(200);
		assertThat(reply.contentType()).startsWith("application/json");
		assertUser(reply.json(), 1, "greg", "greg@gmail.com");
	}

	@Test
	void unknownUserIsNotFoundWithAJsonError() {
		for (String path : new String[] { "/users/999999", "/users/999999/cache" }) {
			Http.Reply reply = this.http.get(path);
			assertThat(reply.status()).as(path).isEqualTo(404);
			assertThat(reply.contentType()).startsWith("application/json");
			assertThat(reply.json().path("status").asInt()).isEqualTo(404);
			assertThat(reply.json().path("message").asText()).isEqualTo("user 999999 not found");
			assertThat(reply.json().path("path").asText()).isEqualTo(path);
		}
	}

	@Test
	void nonNumericIdIsABadRequest() {
		for (String path : new String[] { "/users/abc", "/users/abc/cache", "/products/abc" }) {
			Http.Reply reply = this.http.get(path);
			assertThat(reply.status()).as(path).isEqualTo(400);
			assertThat(reply.json().path("status").asInt()).isEqualTo(400);
			assertThat(reply.json().path("message").asText()).contains("abc");
		}
	}

	@Test
	void cachedUserOneIsThere() {
		Http.Reply reply = this.http.get("/users/1/cache");
		assertThat(reply.status()).isEqualTo(200);
		assertThat(reply.contentType()).startsWith("application/json");
		assertUser(reply.json(), 1, "greg", "greg@gmail.com");
	}

	@Test
	void cacheMissIsFilledFromTheDatabase() {
		JsonNode fromDatabase = this.http.get("/users/3").json();
		Http.Reply first = this.http.get("/users/3/cache");
		Http.Reply second = this.http.get("/users/3/cache");
		assertThat(first.status()).isEqualTo(200);
		assertThat(second.status()).isEqualTo(200);
		assertUser(first.json(), 3, "bruno", "bruno@example.com");
		assertThat(second.json()).isEqualTo(first.json());
		assertThat(first.json().path("createdAt").asText()).startsWith(fromDatabase.path("createdAt").asText().substring(0, 16));
	}

	@Test
	void productIsAssembledFromFourConcurrentCalls() {
		Http.Reply reply = this.http.get("/products/42");
		assertThat(reply.status()).isEqualTo(200);
		assertThat(reply.contentType()).startsWith("application/json");
		JsonNode product = reply.json();
		assertThat(product.path("id").asLong()).isEqualTo(42);
		assertThat(product.path("product").path("name").asText()).isEqualTo("Product 42");
		assertThat(product.path("inventory").has("quantity")).isTrue();
		assertThat(product.path("recommendations")).hasSize(3);
		assertThat(product.path("competitorPrices")).hasSize(2);
		JsonNode calls = product.path("calls");
		assertThat(calls.size()).isEqualTo(4);
		long slowest = 0;
		long sum = 0;
		for (String name : new String[] { "database", "inventory", "recommendations", "competitorPrices" }) {
			long ms = calls.path(name).path("ms").asLong(-1);
			assertThat(ms).as(name).isBetween(100L, 200L); // the test ranges: 100-200 ms each
			assertThat(calls.path(name).path("thread").asText()).as(name).startsWith(productCallThreadPrefix());
			slowest = Math.max(slowest, ms);
			sum += ms;
		}
		// At least the slowest call, and less than the calls one after the other: they ran in parallel.
		assertThat(reply.millis()).isGreaterThanOrEqualTo(slowest).isLessThan(sum);
	}

	@Test
	void productZeroIsNotFound() {
		Http.Reply reply = this.http.get("/products/0");
		assertThat(reply.status()).isEqualTo(404);
		assertThat(reply.json().path("message").asText()).isEqualTo("product 0 not found");
	}

	@Test
	void cpuSpinsOnTheRequestThreadOfTheModel() {
		Http.Reply reply = this.http.get("/cpu?ms=60");
		assertThat(reply.status()).isEqualTo(200);
		assertThat(reply.contentType()).startsWith("application/json");
		JsonNode body = reply.json();
		assertThat(body.path("ms").asLong()).isEqualTo(60);
		assertThat(body.path("elapsedMs").asDouble()).isGreaterThanOrEqualTo(60);
		assertThat(body.path("iterations").asLong()).isPositive();
		assertThat(body.path("thread").asText()).startsWith("request-" + model() + "-");
		assertThat(body.path("virtual").asBoolean()).isEqualTo(model().equals("virtual"));
		assertThat(reply.millis()).isGreaterThanOrEqualTo(60);
	}

	@Test
	void cpuDefaultsToTwentyMillisecondsAndRejectsBadValues() {
		assertThat(this.http.get("/cpu").json().path("ms").asLong()).isEqualTo(20);
		Http.Reply negative = this.http.get("/cpu?ms=-1");
		assertThat(negative.status()).isEqualTo(400);
		assertThat(negative.json().path("message").asText()).contains("ms must be between");
		assertThat(this.http.get("/cpu?ms=x").status()).isEqualTo(400);
	}

	@Test
	void actuatorShowsTheModelAndTheServer() {
		Http.Reply reply = this.http.get("/actuator/threadmodel");
		assertThat(reply.status()).isEqualTo(200);
		assertThat(reply.json().path("model").asText()).isEqualTo(model());
		assertThat(reply.json().path("server").asText()).isEqualTo(expectedServer());
		// jvm, or aot when the tests run on Spring AOT's generated code (the samples' aot-tests profile).
		assertThat(reply.json().path("runtime").path("flavour").path("name").asText())
			.isEqualTo(AotDetector.useGeneratedArtifacts() ? "aot" : "jvm");
		Http.Reply prometheus = this.http.get("/actuator/prometheus");
		assertThat(prometheus.status()).isEqualTo(200);
		assertThat(prometheus.body()).contains("http_server_requests_seconds");
	}

	@Test
	void malformedSwitchBodiesAreBadRequestsThatChangeNothing() {
		for (String body : List.of("{\"model\":", "\"virtual\"", "[]", "model=virtual", "{\"model\":{\"a\":1}}")) {
			Http.Reply reply = this.http.postJson("/actuator/threadmodel", body);
			assertThat(reply.status()).as(body).isEqualTo(400);
		}
		assertThat(this.http.get("/actuator/threadmodel").json().path("switches").size()).isZero();
	}

}
