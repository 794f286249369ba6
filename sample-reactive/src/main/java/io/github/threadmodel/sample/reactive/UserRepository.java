package io.github.threadmodel.sample.reactive;

import java.time.LocalDateTime;

import io.github.threadmodel.sample.support.UserView;
import io.r2dbc.spi.ConnectionFactory;
import reactor.core.publisher.Mono;

import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;

/** The {@code users} table (created by schema.sql), over R2DBC. */
@Repository
public class UserRepository {

	private final DatabaseClient database;

	public UserRepository(ConnectionFactory connectionFactory) {
		this.database = DatabaseClient.create(connectionFactory);
	}

	public Mono<UserView> findById(long id) {
		return this.database.sql("SELECT id, name, email, created_at, updated_at FROM users WHERE id = :id")
			.bind("id", id)
			.map((row, metadata) -> new UserView(row.get("id", Long.class), row.get("name", String.class),
					row.get("email", String.class), row.get("created_at", LocalDateTime.class),
					row.get("updated_at", LocalDateTime.class)))
			.one();
	}

	public Mono<Boolean> existsById(long id) {
		return this.database.sql("SELECT COUNT(*) AS n FROM users WHERE id = :id")
			.bind("id", id)
			.map((row, metadata) -> row.get("n", Long.class))
			.one()
			.map((count) -> count > 0);
	}

	public Mono<Long> insert(UserView user) {
		return this.database
			.sql("INSERT INTO users (id, name, email, created_at, updated_at) "
					+ "VALUES (:id, :name, :email, :createdAt, :updatedAt)")
			.bind("id", user.id())
			.bind("name", user.name())
			.bind("email", user.email())
			.bind("createdAt", user.createdAt())
			.bind("updatedAt", user.updatedAt())
			.fetch()
			.rowsUpdated();
	}

}
