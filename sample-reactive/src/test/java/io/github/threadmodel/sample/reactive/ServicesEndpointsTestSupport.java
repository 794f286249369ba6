package io.github.threadmodel.sample.reactive;

import java.time.Duration;

import io.r2dbc.spi.ConnectionFactory;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.test.context.ActiveProfiles;

import static org.assertj.core.api.Assertions.assertThat;

/** Every endpoint against the real MariaDB and Redis of .ci/services.sh, and a check that they are the ones used. */
@ActiveProfiles({ "mysql", "redis" })
abstract class ServicesEndpointsTestSupport extends ReactiveEndpointsTestSupport {

	private static final Duration WAIT = Duration.ofSeconds(10);

	@Autowired
	ConnectionFactory connectionFactory;

	@Autowired
	ReactiveStringRedisTemplate redis;

	ServicesEndpointsTestSupport(String model) {
		super(model);
	}

	@Test
	void theDatabaseIsMariaDbAndTheCacheIsRedis() {
		DatabaseClient database = DatabaseClient.create(this.connectionFactory);
		assertThat(database.sql("SELECT VERSION() AS v").map((row, metadata) -> row.get("v", String.class)).one().block(WAIT))
			.containsIgnoringCase("mariadb");
		assertThat(database.sql("SELECT name FROM users WHERE id = 1").map((row, metadata) -> row.get("name", String.class)).one().block(WAIT))
			.isEqualTo("greg");
		this.redis.delete("users:4").block(WAIT);
		assertThat(this.http.get("/users/4/cache").status()).isEqualTo(200);
		assertThat(this.redis.<String, String>opsForHash().get("users:4", "email").block(WAIT)).isEqualTo("carla@example.com");
		assertThat(this.redis.<String, String>opsForHash().get("users:1", "name").block(WAIT)).isEqualTo("greg");
	}

}
