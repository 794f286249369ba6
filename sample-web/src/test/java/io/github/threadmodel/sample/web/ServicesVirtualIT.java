package io.github.threadmodel.sample.web;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.ActiveProfiles;

import static org.assertj.core.api.Assertions.assertThat;

/** Every endpoint with virtual threads, against the real MariaDB and Redis of .ci/services.sh. */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "app.threads.model=virtual", EndpointsTestSupport.TEST_PROPERTIES_GREETINGS,
				TestRanges.DATABASE_MIN, TestRanges.DATABASE_MAX, TestRanges.INVENTORY_MIN, TestRanges.INVENTORY_MAX,
				TestRanges.RECOMMENDATIONS_MIN, TestRanges.RECOMMENDATIONS_MAX, TestRanges.PRICES_MIN,
				TestRanges.PRICES_MAX })
@ActiveProfiles({ "mysql", "redis" })
class ServicesVirtualIT extends EndpointsTestSupport {

	@Autowired
	JdbcTemplate jdbc;

	@Autowired
	StringRedisTemplate redis;

	@Override
	String model() {
		return "virtual";
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
