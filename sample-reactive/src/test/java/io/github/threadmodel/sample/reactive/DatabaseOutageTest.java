package io.github.threadmodel.sample.reactive;

import java.sql.SQLException;
import java.time.Duration;

import org.h2.tools.Server;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The database as a separate server (H2 over TCP, in this JVM) that is stopped and started again: while it is
 * down, the endpoints that need it answer 503 with a JSON error within the 2 s timeout and the cache still
 * answers; once it is back, they recover without a restart of the application.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "app.threads.model=virtual")
class DatabaseOutageTest {

	static final int DB_PORT = Ports.free();

	static Server database;

	@DynamicPropertySource
	static void database(DynamicPropertyRegistry registry) throws SQLException {
		database = startDatabase();
		// r2dbc-h2 takes a TCP server's address through its "url" option.
		registry.add("spring.r2dbc.url", () -> "r2dbc:h2://127.0.0.1/outage");
		registry.add("spring.r2dbc.properties.url",
				() -> "tcp://127.0.0.1:" + DB_PORT + "/mem:outage;DB_CLOSE_DELAY=-1");
	}

	static Server startDatabase() throws SQLException {
		return Server.createTcpServer("-tcpPort", String.valueOf(DB_PORT), "-ifNotExists").start();
	}

	@AfterAll
	static void stop() {
		database.stop();
	}

	@LocalServerPort
	int port;

	@Test
	void databaseDownGives503AndTheAppRecoversWhenItIsBack() throws Exception {
		Http http = new Http(this.port);
		assertThat(http.get("/users/1").status()).isEqualTo(200);

		database.stop();
		for (String path : new String[] { "/users/1", "/users/4/cache" }) {
			Http.Reply reply = http.get(path);
			assertThat(reply.status()).as(path).isEqualTo(503);
			assertThat(reply.contentType()).startsWith("application/json");
			assertThat(reply.json().path("message").asText()).isEqualTo("database unavailable");
			assertThat(reply.millis()).as(path).isLessThan(3_000);
		}
		// User 1 was put in the (in-memory) cache at startup: the cache still answers.
		assertThat(http.get("/users/1/cache").status()).isEqualTo(200);

		database = startDatabase();
		Http.Reply back = Ports.awaitStatus(200, Duration.ofSeconds(15), () -> http.get("/users/1"));
		assertThat(back.status()).isEqualTo(200);
		EndpointsTestSupport.assertUser(back.json(), 1, "greg", "greg@gmail.com");
		assertThat(http.get("/users/4/cache").status()).isEqualTo(200);
	}

}
