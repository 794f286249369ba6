package io.github.threadmodel.sample.support;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The samples' own settings ({@code sample.*}), the same in both.
 *
 * @param greetings how long {@code /greetings} waits
 * @param products the simulated back ends behind {@code /products/{id}}
 */
@ConfigurationProperties("sample")
public record SampleProperties(@DefaultValue Greetings greetings, @DefaultValue Products products) {

	/**
	 * @param delay how long {@code /greetings} waits: sample-web blocks its request thread ({@code Thread.sleep}),
	 * sample-reactive holds no thread ({@code Mono.delay})
	 */
	public record Greetings(@DefaultValue("1s") Duration delay) {
	}

	/**
	 * The four calls that {@code /products/{id}} makes in parallel; each takes a uniform random time in its range.
	 */
	public record Products(@DefaultValue({ "100ms", "300ms" }) Range database,
			@DefaultValue({ "150ms", "400ms" }) Range inventory,
			@DefaultValue({ "50ms", "200ms" }) Range recommendations,
			@DefaultValue({ "100ms", "250ms" }) Range competitorPrices) {
	}

	/** A latency range: {@code sample.products.database.min=100ms}, {@code ...max=300ms}. */
	public record Range(Duration min, Duration max) {

		public Range {
			if (min == null || max == null || min.isNegative() || max.compareTo(min) < 0) {
				throw new IllegalArgumentException("need 0 <= min <= max, got min=" + min + " max=" + max);
			}
		}

		/** A uniform random duration in [min, max], in milliseconds. */
		public long pickMillis() {
			long lo = min.toMillis();
			long hi = max.toMillis();
			return (lo == hi) ? lo : ThreadLocalRandom.current().nextLong(lo, hi + 1);
		}

	}

}
