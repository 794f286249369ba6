package io.github.threadmodel.autoconfigure;

import java.time.Duration;

/**
 * Durations as the endpoint's body gives them: milliseconds, with their fraction.
 */
final class Millis {

	private Millis() {
	}

	static double of(Duration duration) {
		return duration.toNanos() / 1_000_000.0;
	}

}
