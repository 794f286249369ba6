package io.github.threadmodel.sample.reactive;

import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.stereotype.Component;

/**
 * At startup: makes sure the seed users exist (the table itself comes from schema.sql), then puts user 1 in the
 * cache. A cache that is down at startup is logged, not fatal: {@code /users/1/cache} fills it later.
 */
@Component
class UserSeeder implements ApplicationRunner {

	private static final Logger logger = LoggerFactory.getLogger(UserSeeder.class);

	static final List<String[]> SEED = List.of(new String[] { "greg", "greg@gmail.com" },
			new String[] { "ana", "ana@example.com" }, new String[] { "bruno", "bruno@example.com" },
			new String[] { "carla", "carla@example.com" }, new String[] { "diego", "diego@example.com" });

	private final UserRepository repository;

	private final UserService users;

	private final UserCache cache;

	UserSeeder(UserRepository repository, UserService users, UserCache cache) {
		this.repository = repository;
		this.users = users;
		this.cache = cache;
	}

	@Override
	public void run(ApplicationArguments args) {
		LocalDateTime now = LocalDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MILLIS);
		Flux.range(0, SEED.size())
			.concatMap((i) -> {
				UserView user = new UserView(i + 1, SEED.get(i)[0], SEED.get(i)[1], now, now);
				return this.repository.existsById(user.id())
					.flatMap((exists) -> exists ? Mono.just(0L) : this.repository.insert(user))
					// Another instance sharing the database inserted it first.
					.onErrorResume(DataIntegrityViolationException.class, (ex) -> Mono.just(0L));
			})
			.then()
			.block(Duration.ofSeconds(30));
		try {
			this.users.fromDatabase(1)
				.flatMap((user) -> this.cache.put(user))
				.timeout(Duration.ofSeconds(5))
				.block();
			logger.info("Seeded {} users; user 1 is in the cache", SEED.size());
		}
		catch (RuntimeException ex) {
			logger.warn("Seeded {} users; could not put user 1 in the cache ({}): /users/1/cache will fill it",
					SEED.size(), ex.toString());
		}
	}

}
