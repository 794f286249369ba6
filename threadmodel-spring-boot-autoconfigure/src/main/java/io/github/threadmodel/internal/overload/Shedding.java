package io.github.threadmodel.internal.overload;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.LongSupplier;

import org.springframework.boot.availability.ReadinessState;

/**
 * Whether the starter sheds load: answers requests 503 because they found the limits
 * full. Sampled once a second ({@link #sample()}): a second with a 503 sheds, a second
 * without does not. Shedding for a sustained time asks readiness to refuse traffic;
 * calm for a while longer lets it accept traffic again, so that a pod that sheds in bursts
 * does not flap in and out of its load balancer.
 */
public final class Shedding {

	private final LongSupplier rejected;

	private final Clock clock;

	private final Duration refuseAfter;

	private final Duration acceptAfter;

	private long lastRejected;

	private volatile boolean shedding;

	private Instant sheddingSince;

	private Instant calmSince;

	private boolean refusing;

	/**
	 * Creates the tracker.
	 * @param rejected the 503 answers written so far
	 * @param clock the clock
	 * @param refuseAfter how long shedding lasts before readiness should refuse traffic
	 * @param acceptAfter how long the server stays calm before readiness should accept
	 * traffic again
	 */
	public Shedding(LongSupplier rejected, Clock clock, Duration refuseAfter, Duration acceptAfter) {
		this.rejected = rejected;
		this.clock = clock;
		this.refuseAfter = refuseAfter;
		this.acceptAfter = acceptAfter;
		this.lastRejected = rejected.getAsLong();
	}

	/**
	 * Takes one sample: whether 503s were written since the last.
	 * @return the readiness that the samples so far ask for when it changes, or
	 * {@code null} when it stays
	 */
	public synchronized ReadinessState sample() {
		long rejected = this.rejected.getAsLong();
		boolean shedding = rejected > this.lastRejected;
		this.lastRejected = rejected;
		this.shedding = shedding;
		Instant now = this.clock.instant();
		if (shedding) {
			this.calmSince = null;
			this.sheddingSince = (this.sheddingSince != null) ? this.sheddingSince : now;
			if (!this.refusing && !now.isBefore(this.sheddingSince.plus(this.refuseAfter))) {
				this.refusing = true;
				return ReadinessState.REFUSING_TRAFFIC;
			}
			return null;
		}
		this.sheddingSince = null;
		this.calmSince = (this.calmSince != null) ? this.calmSince : now;
		if (this.refusing && !now.isBefore(this.calmSince.plus(this.acceptAfter))) {
			this.refusing = false;
			return ReadinessState.ACCEPTING_TRAFFIC;
		}
		return null;
	}

	/**
	 * Whether the last sample saw 503s.
	 * @return whether the starter sheds load now
	 */
	public boolean isShedding() {
		return this.shedding;
	}

	/**
	 * How long readiness waits for sustained shedding before it refuses traffic.
	 * @return the duration
	 */
	public Duration refuseAfter() {
		return this.refuseAfter;
	}

}
