package io.github.threadmodel.sample.support;

import java.io.IOException;
import java.time.Duration;

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

import static io.github.threadmodel.sample.support.UserAssertions.assertUser;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Real outages with the mysql and redis profiles: a redis-server of the test's own is stopped and started again,
 * and the connection to the real MariaDB goes through a proxy that is cut and restored. While a service is down
 * the endpoints that need it answer 503 with a JSON error within the timeout; afterwards they recover by
 * themselves. Each sample's subclass picks the thread model.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@ActiveProfiles({ "mysql", "redis" })
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
public abstract class ServicesOutageTestSupport extends HttpTestSupport {

	static RedisServerProcess redis;

	static TcpProxy database;

	@DynamicPropertySource
	static void services(DynamicPropertyRegistry registry) throws Exception {
		redis = new RedisServerProcess(Ports.free()).start();
		int mariadbPort = Integer.parseInt(System.getenv().getOrDefault("DB_PORT", "3306"));
		database = new TcpProxy(Ports.free(), System.getenv().getOrDefault("DB_HOST", "127.0.0.1"), mariadbPort).start();
		registry.add("spring.data.redis.port", redis::port);
		// application-mysql.properties builds its URL from DB_PORT.
		registry.add("DB_PORT", database::port);
	}

	@AfterAll
	static void stop() throws InterruptedException {
		redis.stop();
		database.stop();
	}

	@Test
	@Order(1)
	void redisStoppedGives503AndTheCacheRecoversWhenRedisIsBack() throws Exception {
		assertThat(this.http.get("/users/2/cache").status()).isEqualTo(200);

		redis.stop();
		Http.Reply down = this.http.get("/users/2/cache");
		assertThat(down.status()).isEqualTo(503);
		assertThat(down.json().path("message").asText()).isEqualTo("redis unavailable");
		assertThat(down.millis()).isLessThan(3_000);
		assertThat(this.http.get("/users/2").status()).isEqualTo(200);

		redis.start(); // empty: no persistence
		Http.Reply back = Ports.awaitStatus(200, Duration.ofSeconds(20), () -> this.http.get("/users/2/cache"));
		assertThat(back.status()).isEqualTo(200);
		assertUser(back.json(), 2, "ana", "ana@example.com");
	}

	@Test
	@Order(2)
	void databaseCutGives503AndTheAppRecoversWhenItIsBack() throws IOException, InterruptedException {
		assertThat(this.http.get("/users/1").status()).isEqualTo(200);
		assertThat(this.http.get("/users/1/cache").status()).isEqualTo(200);

		database.stop();
		for (String path : new String[] { "/users/1", "/users/5/cache" }) {
			Http.Reply reply = this.http.get(path);
			assertThat(reply.status()).as(path).isEqualTo(503);
			assertThat(reply.json().path("message").asText()).isEqualTo("database unavailable");
			assertThat(reply.millis()).as(path).isLessThan(3_000);
		}
		assertThat(this.http.get("/users/1/cache").status()).as("from Redis").isEqualTo(200);

		database.start();
		Http.Reply back = Ports.awaitStatus(200, Duration.ofSeconds(20), () -> this.http.get("/users/1"));
		assertThat(back.status()).isEqualTo(200);
		assertUser(back.json(), 1, "greg", "greg@gmail.com");
		assertThat(this.http.get("/users/5/cache").status()).isEqualTo(200);
	}

}
