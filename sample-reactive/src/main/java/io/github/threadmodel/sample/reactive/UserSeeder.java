package io.github.threadmodel.sample.reactive;

import java.time.Duration;
import java.util.List;

import io.github.threadmodel.sample.support.AbstractUserSeeder;
import io.github.threadmodel.sample.support.UserView;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.stereotype.Component;

/** Seeds the users over R2DBC and caches user 1, waiting at most 30 s and 5 s: see {@link AbstractUserSeeder}. */
@Component
class UserSeeder extends AbstractUserSeeder {

	private final UserRepository repository;

	private final UserService users;

	private final UserCache cache;

	UserSeeder(UserRepository repository, UserService users, UserCache cache) {
		this.repository = repository;
		this.users = users;
		this.cache = cache;
	}

	@Override
	protected void insertMissing(List<UserView> seed) {
		Flux.fromIterable(seed)
			.concatMap((user) -> this.repository.existsById(user.id())
				.flatMap((exists) -> exists ? Mono.just(0L) : this.repository.insert(user))
				// Another instance sharing the database inserted it first.
				.onErrorResume(DataIntegrityViolationException.class, (ex) -> Mono.just(0L)))
			.then()
			.block(Duration.ofSeconds(30));
	}

	@Override
	protected void putUserOneInTheCache() {
		this.users.fromDatabase(1).flatMap((user) -> this.cache.put(user)).timeout(Duration.ofSeconds(5)).block();
	}

}
