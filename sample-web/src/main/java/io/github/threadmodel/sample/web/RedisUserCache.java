package io.github.threadmodel.sample.web;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import io.github.threadmodel.sample.support.UserHash;
import io.github.threadmodel.sample.support.UserView;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Profile;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * The cache with the {@code redis} profile: one hash per user ({@link UserHash}), expiring after
 * {@code sample.cache.ttl}.
 */
@Component
@Profile("redis")
class RedisUserCache implements UserCache {

	private final StringRedisTemplate redis;

	private final Duration ttl;

	RedisUserCache(StringRedisTemplate redis, @Value("${sample.cache.ttl:10m}") Duration ttl) {
		this.redis = redis;
		this.ttl = ttl;
	}

	@Override
	public Optional<UserView> get(long id) {
		Map<Object, Object> fields = this.redis.opsForHash().entries(UserHash.key(id));
		if (fields.isEmpty()) {
			return Optional.empty();
		}
		return Optional.of(UserHash.user(id, fields));
	}

	@Override
	public void put(UserView user) {
		String key = UserHash.key(user.id());
		this.redis.opsForHash().putAll(key, UserHash.fields(user));
		this.redis.expire(key, this.ttl);
	}

}
