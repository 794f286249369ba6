package io.github.threadmodel.sample.web;

import java.sql.SQLException;

import io.github.threadmodel.sample.support.DatabaseOutageTestSupport;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;

/**
 * The database stopped and started again, with platform threads (sample-reactive runs it with virtual threads),
 * reached over JDBC.
 */
@TestPropertySource(properties = "app.threads.model=platform")
class DatabaseOutageTest extends DatabaseOutageTestSupport {

	@DynamicPropertySource
	static void useTheDatabase(DynamicPropertyRegistry registry) throws SQLException {
		database.start();
		registry.add("spring.datasource.url", () -> "jdbc:h2:" + database.url());
	}

}
