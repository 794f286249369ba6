package io.github.threadmodel.sample.web;

import java.util.Optional;

import io.github.threadmodel.sample.support.NotFoundException;
import io.github.threadmodel.sample.support.UserView;

import org.springframework.stereotype.Service;

@Service
public class UserService {

	private final UserRepository repository;

	private final UserCache cache;

	public UserService(UserRepository repository, UserCache cache) {
		this.repository = repository;
		this.cache = cache;
	}

	public UserView fromDatabase(long id) {
		return this.repository.findById(id).map(User::toView).orElseThrow(() -> notFound(id));
	}

	/** From the cache; on a miss, from the database, and then into the cache. */
	public UserView fromCache(long id) {
		Optional<UserView> cached = this.cache.get(id);
		if (cached.isPresent()) {
			return cached.get();
		}
		UserView user = fromDatabase(id);
		this.cache.put(user);
		return user;
	}

	private static NotFoundException notFound(long id) {
		return new NotFoundException("user " + id + " not found");
	}

}
