package io.github.threadmodel.sample.web;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.ActiveProfiles;

import static org.assertj.core.api.Assertions.assertThat;

/** Every endpoint against the real MariaDB and Redis of .ci/services.sh, and a check that they are the ones used. */
@ActiveProfiles({ "mysql", "redis" })
abstract class ServicesEndpointsTestSupport extends WebEndpointsTestSupport {

	@Autowired
	JdbcTemplate jdbc;

	@Autowired
	StringRedisTemplate redis;

	ServicesEndpointsTestSupport(String model) {
		super(model);
	}

	@Test
	void theDatabaseIsMariaDbAndTheCacheIsRedis() {
		assertThat(this.jdbc.queryForObject("SELECT VERSION()", String.class)).containsIgnoringCase("mariadb");
		assertThat(this.jdbc.queryForObject("SELECT name FROM users WHERE id = 1", String.class)).isEqualTo("greg");
		this.redis.delete("users:4");
		assertThat(this.http.get("/users/4/cache").status()).isEqualTo(200);
		assertThat(this.redis.<String, String>opsForHash().get("users:4", "email")).isEqualTo("carla@example.com");
		assertThat(this.redis.<String, String>opsForHash().get("users:1", "name")).isEqualTo("greg");
	}

}
