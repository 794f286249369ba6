package io.github.threadmodel.sample.support;

import java.io.IOException;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The redis profile with a Redis that hangs (accepts connections, never answers), then one that is gone
 * (connection refused): {@code /users/{id}/cache} answers 503 with a JSON error within the configured timeout (1 s
 * here), and the endpoints that do not need Redis keep working. Each sample's subclass picks the thread model.
 * Recovery with a real Redis is in {@link ServicesOutageTestSupport}.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "spring.data.redis.timeout=1s", "spring.data.redis.connect-timeout=1s",
				"sample.backend-timeout=1s" })
@ActiveProfiles("redis")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
public abstract class RedisOutageTestSupport extends HttpTestSupport {

	static SilentServer silentRedis;

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry registry) throws IOException {
		silentRedis = new SilentServer();
		registry.add("spring.data.redis.host", () -> "127.0.0.1");
		registry.add("spring.data.redis.port", silentRedis::port);
	}

	@AfterAll
	static void stop() throws IOException {
		silentRedis.close();
	}

	@Test
	@Order(1)
	void redisThatHangsGives503WithinTheTimeout() {
		Http.Reply reply = this.http.get("/users/1/cache");
		assertUnavailable(reply, "/users/1/cache");
		assertThat(reply.millis()).isLessThan(2_500);
		assertThat(this.http.get("/users/1").status()).isEqualTo(200);
		assertThat(this.http.get("/ping").body()).isEqualTo("1");
	}

	@Test
	@Order(2)
	void redisThatIsGoneGives503Quickly() throws IOException {
		silentRedis.close();
		for (int i = 0; i < 3; i++) {
			Http.Reply reply = this.http.get("/users/2/cache");
			assertUnavailable(reply, "/users/2/cache");
			assertThat(reply.millis()).isLessThan(2_500);
		}
		assertThat(this.http.get("/users/2").status()).isEqualTo(200);
	}

	private static void assertUnavailable(Http.Reply reply, String path) {
		assertThat(reply.status()).isEqualTo(503);
		assertThat(reply.contentType()).startsWith("application/json");
		assertThat(reply.json().path("status").asInt()).isEqualTo(503);
		assertThat(reply.json().path("message").asText()).isEqualTo("redis unavailable");
		assertThat(reply.json().path("path").asText()).isEqualTo(path);
	}

}
