package io.github.threadmodel.sample.reactive;

import java.time.Duration;
import java.time.LocalDateTime;
import java.util.LinkedHashMap;
import java.util.Map;

import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Profile;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * The cache with the {@code redis} profile: one hash per user, {@code users:<id>}, with the fields name, email,
 * createdAt and updatedAt (the same layout as sample-web's), expiring after {@code sample.cache.ttl}.
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

	static String key(long id) {
		return "users:" + id;
	}

	@Override
	public Mono<UserView> get(long id) {
		return offTheEventLoopUntilConnected(this.redis.<String, String>opsForHash()
			.entries(key(id))
			.collectMap(Map.Entry::getKey, Map.Entry::getValue)
			.filter((fields) -> !fields.isEmpty())
			.map((fields) -> new UserView(id, fields.get("name"), fields.get("email"),
					LocalDateTime.parse(fields.get("createdAt")), LocalDateTime.parse(fields.get("updatedAt")))));
	}

	@Override
	public Mono<Void> put(UserView user) {
		Map<String, String> fields = new LinkedHashMap<>();
		fields.put("name", user.name());
		fields.put("email", user.email());
		fields.put("createdAt", user.createdAt().toString());
		fields.put("updatedAt", user.updatedAt().toString());
		String key = key(user.id());
		return offTheEventLoopUntilConnected(
				this.redis.<String, String>opsForHash().putAll(key, fields).then(this.redis.expire(key, this.ttl)).then());
	}

	private <T> Mono<T> offTheEventLoopUntilConnected(Mono<T> call) {
		Mono<T> tracked = call.doOnSuccess((result) -> this.connected = true);
		return this.connected ? tracked : tracked.subscribeOn(Schedulers.boundedElastic());
	}

}
