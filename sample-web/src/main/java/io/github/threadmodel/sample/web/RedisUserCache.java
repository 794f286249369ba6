package io.github.threadmodel.sample.web;

import java.time.Duration;
import java.time.LocalDateTime;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Profile;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * The cache with the {@code redis} profile: one hash per user, {@code users:<id>}, with the fields name, email,
 * createdAt and updatedAt, expiring after {@code sample.cache.ttl}.
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

	static String key(long id) {
		return "users:" + id;
	}

	@Override
	public Optional<UserView> get(long id) {
		Map<Object, Object> fields = this.redis.opsForHash().entries(key(id));
		if (fields.isEmpty()) {
			return Optional.empty();
		}
		return Optional.of(new UserView(id, (String) fields.get("name"), (String) fields.get("email"),
				LocalDateTime.parse((String) fields.get("createdAt")),
				LocalDateTime.parse((String) fields.get("updatedAt"))));
	}

	@Override
	public void put(UserView user) {
		Map<String, String> fields = new LinkedHashMap<>();
		fields.put("name", user.name());
		fields.put("email", user.email());
		fields.put("createdAt", user.createdAt().toString());
		fields.put("updatedAt", user.updatedAt().toString());
		String key = key(user.id());
		this.redis.opsForHash().putAll(key, fields);
		this.redis.expire(key, this.ttl);
	}

}
