package io.github.threadmodel.internal.overload;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import org.springframework.boot.availability.ReadinessState;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Readiness follows sustained shedding, with hysteresis, on an injected clock.
 */
class SheddingTests {

	private final AtomicLong rejected = new AtomicLong();

	private Instant now = Instant.parse("2026-11-26T12:00:00Z");

	private final Shedding shedding = new Shedding(this.rejected::get, new Clock() {

		@Override
		public Instant instant() {
			return SheddingTests.this.now;
		}

		@Override
		public ZoneOffset getZone() {
			return ZoneOffset.UTC;
		}

		@Override
		public Clock withZone(java.time.ZoneId zone) {
			return this;
		}

	}, Duration.ofSeconds(10), Duration.ofSeconds(30));

	@Test
	void refusesTrafficOnlyAfterShedding10SecondsInARow() {
		for (int second = 0; second < 10; second++) {
			assertThat(secondWith(5)).as("second %d", second).isNull();
			assertThat(this.shedding.isShedding()).isTrue();
		}
		assertThat(secondWith(5)).isEqualTo(ReadinessState.REFUSING_TRAFFIC);
		assertThat(secondWith(5)).as("once").isNull();
	}

	@Test
	void aCalmSecondStartsTheCountAgain() {
		for (int second = 0; second < 8; second++) {
			assertThat(secondWith(1)).isNull();
		}
		assertThat(secondWith(0)).isNull();
		assertThat(this.shedding.isShedding()).isFalse();
		for (int second = 0; second < 10; second++) {
			assertThat(secondWith(1)).isNull();
		}
		assertThat(secondWith(1)).isEqualTo(ReadinessState.REFUSING_TRAFFIC);
	}

	@Test
	void acceptsTrafficAgainOnlyAfter30CalmSeconds() {
		for (int second = 0; second <= 10; second++) {
			secondWith(3);
		}
		for (int second = 0; second < 30; second++) {
			assertThat(secondWith(0)).as("calm second %d", second).isNull();
		}
		assertThat(secondWith(0)).isEqualTo(ReadinessState.ACCEPTING_TRAFFIC);
		assertThat(secondWith(0)).isNull();
	}

	@Test
	void neverAcceptsTrafficThatItDidNotRefuse() {
		for (int second = 0; second < 60; second++) {
			assertThat(secondWith(0)).isNull();
		}
	}

	private ReadinessState secondWith(int answers503) {
		this.now = this.now.plusSeconds(1);
		this.rejected.addAndGet(answers503);
		return this.shedding.sample();
	}

}
