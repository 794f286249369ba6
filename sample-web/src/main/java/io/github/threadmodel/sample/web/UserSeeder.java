package io.github.threadmodel.sample.web;

import java.util.List;

import io.github.threadmodel.sample.support.AbstractUserSeeder;
import io.github.threadmodel.sample.support.UserView;

import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.stereotype.Component;

/** Seeds the users over JPA and caches user 1, blocking: see {@link AbstractUserSeeder}. */
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
		for (UserView user : seed) {
			if (!this.repository.existsById(user.id())) {
				try {
					this.repository.save(User.of(user));
				}
				catch (DataIntegrityViolationException ex) {
					// Another instance sharing the database inserted it first.
				}
			}
		}
	}

	@Override
	protected void putUserOneInTheCache() {
		this.cache.put(this.users.fromDatabase(1));
	}

}
