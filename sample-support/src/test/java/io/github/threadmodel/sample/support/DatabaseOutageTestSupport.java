package io.github.threadmodel.sample.support;

import java.time.Duration;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

import static io.github.threadmodel.sample.support.UserAssertions.assertUser;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The database as a separate server ({@link #database}, H2 over TCP in this JVM) that is stopped and started
 * again: while it is down, the endpoints that need it answer 503 with a JSON error within the 2 s timeout and the
 * cache still answers; once it is back, they recover without a restart of the application. Each sample's subclass
 * picks the thread model, starts {@link #database} and points its JDBC or R2DBC settings at it, in a
 * {@code @DynamicPropertySource} method.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
public abstract class DatabaseOutageTestSupport extends HttpTestSupport {

	protected static final H2TcpServer database = new H2TcpServer("outage");

	@AfterAll
	static void stop() {
		database.stop();
	}

	@Test
	void databaseDownGives503AndTheAppRecoversWhenItIsBack() throws Exception {
		assertThat(this.http.get("/users/1").status()).isEqualTo(200);

		database.stop();
		for (String path : new String[] { "/users/1", "/users/4/cache" }) {
			Http.Reply reply = this.http.get(path);
			assertThat(reply.status()).as(path).isEqualTo(503);
			assertThat(reply.contentType()).startsWith("application/json");
			assertThat(reply.json().path("message").asText()).isEqualTo("database unavailable");
			assertThat(reply.millis()).as(path).isLessThan(3_000);
		}
		// User 1 was put in the (in-memory) cache at startup: the cache still answers.
		assertThat(this.http.get("/users/1/cache").status()).isEqualTo(200);

		database.start();
		Http.Reply back = Ports.awaitStatus(200, Duration.ofSeconds(15), () -> this.http.get("/users/1"));
		assertThat(back.status()).isEqualTo(200);
		assertUser(back.json(), 1, "greg", "greg@gmail.com");
		assertThat(this.http.get("/users/4/cache").status()).isEqualTo(200);
	}

}
