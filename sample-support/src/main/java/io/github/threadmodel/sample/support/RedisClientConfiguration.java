package io.github.threadmodel.sample.support;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.resource.Delay;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.data.redis.ClientResourcesBuilderCustomizer;
import org.springframework.boot.autoconfigure.data.redis.LettuceClientConfigurationBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;

/**
 * Redis down must not make requests hang: while the connection is lost, commands are rejected at once instead of
 * being queued until Redis returns, connecting gives up after {@code spring.data.redis.connect-timeout}, and a
 * command that gets no answer fails after {@code spring.data.redis.timeout}. Lettuce reconnects by itself, at
 * least every 2 s while Redis is away (its default backs off to 30 s).
 * <p>
 * The same for Spring Data Redis's blocking and reactive templates: both samples import it.
 */
@Configuration(proxyBeanMethods = false)
@Profile("redis")
public class RedisClientConfiguration {

	@Bean
	LettuceClientConfigurationBuilderCustomizer failFastWhenRedisIsDown(
			@Value("${spring.data.redis.connect-timeout:2s}") Duration connectTimeout,
			@Value("${spring.data.redis.timeout:2s}") Duration commandTimeout) {
		return (builder) -> builder.commandTimeout(commandTimeout)
			.clientOptions(ClientOptions.builder()
				.autoReconnect(true)
				.disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
				.socketOptions(SocketOptions.builder().connectTimeout(connectTimeout).build())
				.timeoutOptions(TimeoutOptions.enabled(commandTimeout))
				.build());
	}

	@Bean
	ClientResourcesBuilderCustomizer reconnectQuickly() {
		return (builder) -> builder
			.reconnectDelay(Delay.exponential(Duration.ofMillis(100), Duration.ofSeconds(2), 2, TimeUnit.MILLISECONDS));
	}

}
