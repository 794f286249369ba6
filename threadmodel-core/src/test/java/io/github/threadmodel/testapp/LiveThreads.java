package io.github.threadmodel.testapp;

import java.time.Duration;

import org.awaitility.Awaitility;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Counts live platform threads by name, to check that retired pools have ended.
 */
public final class LiveThreads {

	private LiveThreads() {
	}

	/**
	 * Waits until exactly {@code expected} live threads have names starting with
	 * {@code prefix}, failing after {@code limit}.
	 */
	public static void await(String prefix, long expected, Duration limit) {
		Awaitility.await()
			.atMost(limit)
			.pollInterval(Duration.ofMillis(10))
			.untilAsserted(() -> assertThat(count(prefix)).as("live %s threads", prefix).isEqualTo(expected));
	}

	private static long count(String prefix) {
		return Thread.getAllStackTraces().keySet().stream().filter((t) -> t.getName().startsWith(prefix)).count();
	}

}
