package io.github.threadmodel.sample.reactive;

import java.sql.SQLException;

import io.github.threadmodel.sample.support.DatabaseOutageTestSupport;

import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;

/**
 * The database stopped and started again, with virtual threads (sample-web runs it with platform threads),
 * reached over R2DBC.
 */
@TestPropertySource(properties = "app.threads.model=virtual")
class DatabaseOutageTest extends DatabaseOutageTestSupport {

	@DynamicPropertySource
	static void useTheDatabase(DynamicPropertyRegistry registry) throws SQLException {
		database.start();
		// r2dbc-h2 takes a TCP server's address through its "url" option.
		registry.add("spring.r2dbc.url", () -> "r2dbc:h2://127.0.0.1/outage");
		registry.add("spring.r2dbc.properties.url", database::url);
	}

}
