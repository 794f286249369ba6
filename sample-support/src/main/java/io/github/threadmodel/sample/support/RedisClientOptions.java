package io.github.threadmodel.sample.support;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.Delay;

import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration.LettuceClientConfigurationBuilder;

/**
 * Redis down must not make requests hang: while the connection is lost, commands are rejected at once instead of
 * being queued until Redis returns, connecting gives up after {@code spring.data.redis.connect-timeout}, and a
 * command that gets no answer fails after {@code spring.data.redis.timeout}. Lettuce reconnects by itself, at
 * least every 2 s while Redis is away (its default backs off to 30 s).
 * <p>
 * The same for Spring Data Redis's blocking and reactive templates: both samples import
 * {@link RedisClientConfiguration}, which applies these settings through Boot's Lettuce customizers. That class is
 * the only part that differs between the Boot lines (the customizer interfaces moved to
 * {@code org.springframework.boot.data.redis.autoconfigure} in Boot 4), so it is kept in
 * {@code src/boot4/java} and {@code src/boot3/java} and does nothing but call these two methods.
 */
public final class RedisClientOptions {

	private RedisClientOptions() {
	}

	/** Fail fast: commands rejected while disconnected, bounded connect and command times. */
	public static void failFast(LettuceClientConfigurationBuilder builder, Duration connectTimeout,
			Duration commandTimeout) {
		builder.commandTimeout(commandTimeout)
			.clientOptions(ClientOptions.builder()
				.autoReconnect(true)
				.disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
				.socketOptions(SocketOptions.builder().connectTimeout(connectTimeout).build())
				.timeoutOptions(TimeoutOptions.enabled(commandTimeout))
				.build());
	}

	/** Reconnect attempts from 100 ms, backing off to at most 2 s. */
	public static void reconnectQuickly(ClientResources.Builder builder) {
		builder.reconnectDelay(Delay.exponential(Duration.ofMillis(100), Duration.ofSeconds(2), 2, TimeUnit.MILLISECONDS));
	}

}
