package io.github.threadmodel.sample.reactive;

import io.github.threadmodel.sample.support.UserView;
import reactor.core.publisher.Mono;

/** Users by id: Redis with the {@code redis} profile, a map in memory otherwise. */
public interface UserCache {

	/** The user, or empty on a miss. */
	Mono<UserView> get(long id);

	Mono<Void> put(UserView user);

}
