package io.github.threadmodel.sample.reactive;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import io.github.threadmodel.sample.support.UserView;
import reactor.core.publisher.Mono;

import org.springframework.context.annotation.Profile;
import org.springframework.stereotype.Component;

/** The cache when the {@code redis} profile is off. */
@Component
@Profile("!redis")
class InMemoryUserCache implements UserCache {

	private final ConcurrentMap<Long, UserView> users = new ConcurrentHashMap<>();

	@Override
	public Mono<UserView> get(long id) {
		return Mono.fromSupplier(() -> this.users.get(id));
	}

	@Override
	public Mono<Void> put(UserView user) {
		return Mono.fromRunnable(() -> this.users.put(user.id(), user));
	}

}
