package io.github.threadmodel.executor;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import io.github.threadmodel.executor.ExecutorSettings.AdaptiveAdmission;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * The log lines of an {@link AdaptiveLimiter} about the heap: one WARN at the start of a
 * pressure episode (at most one a minute), one when a full collection shows that the
 * requests in flight do not explain the pressure (once an episode), DEBUG otherwise.
 */
final class HeapPressureLog {

	/** The shortest time between two WARN lines about heap pressure. */
	private static final long WARN_INTERVAL_NANOS = TimeUnit.MINUTES.toNanos(1);

	// the category users know from the WARN lines and configure levels for
	private static final Log logger = LogFactory.getLog(AdaptiveLimiter.class);

	private final AdaptiveAdmission settings;

	private final LongSupplier clock;

	/** Whether the WARN about the limit at its minimum was logged in this pressure episode. */
	private boolean minimumWarned;

	private boolean warned;

	private long lastWarning;

	/**
	 * @param settings the bounds and threshold the lines name
	 * @param clock the time in nanoseconds, as {@link System#nanoTime()}
	 */
	HeapPressureLog(AdaptiveAdmission settings, LongSupplier clock) {
		this.settings = settings;
		this.clock = clock;
	}

	/**
	 * Logs what a collection above the threshold did to the limit.
	 * @param pressure the collection's figures and the limit before and after
	 * @param full whether it was a full collection, after which only what is live is left
	 */
	synchronized void pressure(HeapLimit.Pressure pressure, boolean full) {
		if (pressure.firstOfEpisode()) {
			this.minimumWarned = false;
		}
		long now = this.clock.getAsLong();
		int after = pressure.after();
		String figures = "%.0f%% of the heap used after a garbage collection (threshold %.0f%%), %d requests in flight"
			.formatted(pressure.share() * 100, this.settings.heapThreshold() * 100, pressure.inFlight());
		// only a full collection shows that what fills the heap is live: after a young one the
		// old generation may still hold the garbage of ended requests
		if (full && after <= this.settings.minLimit() && pressure.inFlight() <= this.settings.minLimit()
				&& !this.minimumWarned) {
			this.minimumWarned = true;
			logger.warn("Heap pressure after a full collection with the virtual-thread admission limit at its minimum ("
					+ after + "): " + figures
					+ ". The requests in flight do not explain it: give the JVM more heap (-Xmx), or look for what "
					+ "else fills it");
		}
		else if (pressure.firstOfEpisode() && (!this.warned || now - this.lastWarning >= WARN_INTERVAL_NANOS)) {
			this.warned = true;
			this.lastWarning = now;
			logger.warn("Heap pressure: " + figures + "; the virtual-thread admission limit goes from "
					+ pressure.before() + " to " + after + ", requests beyond it wait in arrival order "
					+ "(up to the queue timeout, then they are answered 503)");
		}
		else if (logger.isDebugEnabled()) {
			logger.debug("Heap pressure: " + figures + "; admission limit " + pressure.before() + " -> " + after);
		}
	}

	/**
	 * Says that the limit will never fall, as the JVM does not report its collections.
	 * @param settings the bounds
	 */
	static void noCollectionsReported(AdaptiveAdmission settings) {
		logger.warn("This JVM does not report its garbage collections: the adaptive limit of virtual threads "
				+ "grows to " + settings.maxLimit() + ", its maximum, as requests wait, and never falls");
	}

	/**
	 * Says that the limit asks for a full collection to check a pressure reported long ago.
	 * @param sinceNanos how long ago the last collection was reported
	 */
	static void askingForFullCollection(long sinceNanos) {
		logger.debug("Heap pressure reported by the last collection " + sinceNanos / 1_000_000
				+ " ms ago while requests wait: asking for a full collection to see what is live");
	}

}
