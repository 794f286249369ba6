package io.github.threadmodel.sample.support;

import java.time.Duration;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.data.redis.ClientResourcesBuilderCustomizer;
import org.springframework.boot.autoconfigure.data.redis.LettuceClientConfigurationBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;

/**
 * The Redis client options of {@link RedisClientOptions}, given to Boot's Lettuce auto-configuration with the
 * redis profile. This copy is for Boot 3.5; the Boot 4 copy is in src/boot4/java (only the imports differ).
 */
@Configuration(proxyBeanMethods = false)
@Profile("redis")
public class RedisClientConfiguration {

	@Bean
	LettuceClientConfigurationBuilderCustomizer failFastWhenRedisIsDown(
			@Value("${spring.data.redis.connect-timeout:2s}") Duration connectTimeout,
			@Value("${spring.data.redis.timeout:2s}") Duration commandTimeout) {
		return (builder) -> RedisClientOptions.failFast(builder, connectTimeout, commandTimeout);
	}

	@Bean
	ClientResourcesBuilderCustomizer reconnectQuickly() {
		return RedisClientOptions::reconnectQuickly;
	}

}
