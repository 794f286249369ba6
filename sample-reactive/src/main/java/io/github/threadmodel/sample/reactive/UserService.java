package io.github.threadmodel.sample.reactive;

import java.time.Duration;

import io.github.threadmodel.sample.support.NotFoundException;
import io.github.threadmodel.sample.support.UserView;
import reactor.core.publisher.Mono;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Service;

/**
 * Users from the database and from the cache. Every call to a back end gives up after
 * {@code sample.backend-timeout}: a back end that is down or silent becomes a {@link BackendUnavailableException}
 * (503), never a request that hangs.
 */
@Service
public class UserService {

	private final UserRepository repository;

	private final UserCache cache;

	private final Duration timeout;

	public UserService(UserRepository repository, UserCache cache,
			@Value("${sample.backend-timeout:2s}") Duration timeout) {
		this.repository = repository;
		this.cache = cache;
		this.timeout = timeout;
	}

	public Mono<UserView> fromDatabase(long id) {
		return guard(this.repository.findById(id), "database")
			.switchIfEmpty(Mono.error(() -> new NotFoundException("user " + id + " not found")));
	}

	/** From the cache; on a miss, from the database, and then into the cache. */
	public Mono<UserView> fromCache(long id) {
		return guard(this.cache.get(id), "redis")
			.switchIfEmpty(Mono.defer(() -> fromDatabase(id)
				.flatMap((user) -> guard(this.cache.put(user), "redis").thenReturn(user))));
	}

	private <T> Mono<T> guard(Mono<T> call, String backend) {
		return call.timeout(this.timeout)
			.onErrorMap(BackendUnavailableException::isUnavailable, (ex) -> new BackendUnavailableException(backend, ex));
	}

}
