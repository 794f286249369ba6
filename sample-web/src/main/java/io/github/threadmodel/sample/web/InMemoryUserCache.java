package io.github.threadmodel.sample.web;

import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import io.github.threadmodel.sample.support.UserView;

import org.springframework.context.annotation.Profile;
import org.springframework.stereotype.Component;

/** The cache when the {@code redis} profile is off. */
@Component
@Profile("!redis")
class InMemoryUserCache implements UserCache {

	private final ConcurrentMap<Long, UserView> users = new ConcurrentHashMap<>();

	@Override
	public Optional<UserView> get(long id) {
		return Optional.ofNullable(this.users.get(id));
	}

	@Override
	public void put(UserView user) {
		this.users.put(user.id(), user);
	}

}
