package io.github.threadmodel.sample.reactive;

import java.time.Duration;
import java.util.Map;

import io.github.threadmodel.sample.support.UserHash;
import io.github.threadmodel.sample.support.UserView;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Profile;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * The cache with the {@code redis} profile: one hash per user ({@link UserHash}, the same layout as sample-web's),
 * expiring after {@code sample.cache.ttl}.
 * <p>
 * Spring Data Redis opens its shared Lettuce connection synchronously, on the thread that first subscribes. Until
 * that has worked once, calls subscribe on {@code boundedElastic}, so that a Redis that hangs at startup holds
 * no event loop and the caller's timeout fires on time; afterwards Lettuce reconnects in the background and the
 * calls stay on the event loop.
 */
@Component
@Profile("redis")
class RedisUserCache implements UserCache {

	private final ReactiveStringRedisTemplate redis;

	private final Duration ttl;

	private volatile boolean connected;

	RedisUserCache(ReactiveStringRedisTemplate redis, @Value("${sample.cache.ttl:10m}") Duration ttl) {
		this.redis = redis;
		this.ttl = ttl;
	}

	@Override
	public Mono<UserView> get(long id) {
		return offTheEventLoopUntilConnected(this.redis.<String, String>opsForHash()
			.entries(UserHash.key(id))
			.collectMap(Map.Entry::getKey, Map.Entry::getValue)
			.filter((fields) -> !fields.isEmpty())
			.map((fields) -> UserHash.user(id, fields)));
	}

	@Override
	public Mono<Void> put(UserView user) {
		String key = UserHash.key(user.id());
		return offTheEventLoopUntilConnected(this.redis.<String, String>opsForHash()
			.putAll(key, UserHash.fields(user))
			.then(this.redis.expire(key, this.ttl))
			.then());
	}

	private <T> Mono<T> offTheEventLoopUntilConnected(Mono<T> call) {
		Mono<T> tracked = call.doOnSuccess((result) -> this.connected = true);
		return this.connected ? tracked : tracked.subscribeOn(Schedulers.boundedElastic());
	}

}
