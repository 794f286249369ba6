package io.github.threadmodel.executor;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

import io.github.threadmodel.executor.ExecutorSettings.AdaptiveAdmission;

/**
 * The adaptive limit's algorithm: a concurrency limit that follows what the heap can hold.
 * It holds no permits, threads or listeners ({@link AdaptiveLimit} does): it is told when
 * tasks wait, when they end and what each garbage collection left, and reads the time
 * from the clock it is given. Two rules move it:
 * <ul>
 * <li><b>Decrease at heap pressure.</b> A garbage collection that leaves more than
 * {@link AdaptiveAdmission#heapThreshold()} of the maximum heap in use (see
 * {@link HeapPressure}) sets the limit to three quarters of the tasks in flight: they hold
 * the heap, and the ones admitted next would need more of it. Not again before the tasks'
 * average run time has passed: a decrease shows in the heap only once the tasks in flight
 * have ended, and until then the collections report the same pressure (after a young
 * collection the old generation still holds what the ended tasks left there).</li>
 * <li><b>Growth while tasks wait.</b> When a task finds every permit taken, the limit
 * grows by the room the last collection showed, {@code threshold / used} (at most a
 * doubling): if what is in use grows in proportion, it reaches the threshold and no
 * further. It grows once a collection has shown what the tasks it let in last cost (and,
 * on JDK 24+, once at most a quarter of the limit's worth of virtual threads wait for a
 * carrier: a task that has not run yet has not shown its cost), and at most once per
 * {@link #GROWTH_INTERVAL}, or once per {@link #QUIET_INTERVAL} when no collection comes (a
 * heap that quiet is in no danger); not at all while the heap is under pressure.</li>
 * </ul>
 * It starts at what the heap's room holds ({@link #startingLimit}); from there a burst
 * opens it step by step, each step checked by a collection. Growth is clocked by the
 * collector, not by completed tasks as in the additive-increase and latency-gradient
 * algorithms of Netflix's concurrency-limits: tasks that run a second each would open the
 * limit by at most a doubling per second. Run times are not a signal either: they differ by
 * endpoint far more than load changes them. How the rules came to be:
 * docs/results/2026-11-26-adaptive-limit-history.md.
 */
final class HeapLimit {

	/** The algorithm's name, as the endpoint shows it. */
	static final String ALGORITHM = "heap";

	/** The shortest time between two growths of the limit. */
	static final Duration GROWTH_INTERVAL = Duration.ofMillis(100);

	/**
	 * How long the limit waits for a garbage collection to show what the tasks it let in
	 * last cost before it grows without one.
	 */
	static final Duration QUIET_INTERVAL = Duration.ofSeconds(1);

	/**
	 * What a task is assumed to hold on the heap when the limit starts: far above what a
	 * request holds, so that the first collection comes well before the heap is full.
	 */
	static final long ASSUMED_TASK_HEAP = 1024 * 1024;

	/** The share of the tasks in flight the limit falls to at heap pressure. */
	private static final double DECREASE = 0.75;

	/** Bounds of the time a decrease waits for the previous one to show (the tasks' average run time). */
	private static final long MIN_SETTLE_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

	private static final long MAX_SETTLE_NANOS = TimeUnit.SECONDS.toNanos(5);

	private final AdaptiveAdmission settings;

	private final LongSupplier clock;

	private volatile int limit;

	private final LongAdder decreases = new LongAdder();

	/** The share of the heap used after the last collection, or -1 before the first. */
	private volatile double usedAfterGc = -1;

	/** When the limit last changed ({@link #clock}), for the growth interval. */
	private volatile long lastChange;

	/**
	 * The tasks' average run time, smoothed (a tenth of each new sample), in nanoseconds: a
	 * decrease shows in the heap once the tasks in flight have ended.
	 */
	private volatile double averageRunNanos = MIN_SETTLE_NANOS;

	/** When the limit last decreased. */
	private long lastDecrease;

	private boolean decreased;

	/** Garbage collections seen, and how many had been seen when the limit last changed. */
	private volatile long collections;

	private volatile long collectionsAtChange;

	/** Whether the last collection left the heap above the threshold (written under this lock). */
	private volatile boolean pressured;

	/**
	 * Creates a limit.
	 * @param settings the bounds and the threshold
	 * @param clock the time in nanoseconds, as {@link System#nanoTime()}
	 * @param start the limit to start at (see {@link #startingLimit})
	 */
	HeapLimit(AdaptiveAdmission settings, LongSupplier clock, int start) {
		this.settings = settings;
		this.clock = clock;
		this.limit = start;
		// free to grow at the first task that waits
		this.lastChange = clock.getAsLong() - QUIET_INTERVAL.toNanos();
	}

	/**
	 * The limit to start at: as many tasks as the heap's room up to the threshold holds at
	 * {@link #ASSUMED_TASK_HEAP} each, within the bounds (on a 256 MB heap about 150, on a
	 * heap of several GB the most the bounds allow).
	 * @param settings the bounds and the threshold
	 * @param maxHeap the maximum heap, in bytes ({@link Runtime#maxMemory()})
	 * @param usedHeap the heap in use now, in bytes
	 * @return the starting limit
	 */
	static int startingLimit(AdaptiveAdmission settings, long maxHeap, long usedHeap) {
		double room = settings.heapThreshold() * maxHeap - usedHeap;
		double tasks = Math.floor(room / ASSUMED_TASK_HEAP);
		return (int) Math.max(settings.minLimit(), Math.min(settings.maxLimit(), tasks));
	}

	/**
	 * The limit now.
	 * @return the most tasks that may run at once
	 */
	int limit() {
		return this.limit;
	}

	/**
	 * The bounds the limit moves within.
	 * @return the settings
	 */
	AdaptiveAdmission settings() {
		return this.settings;
	}

	/**
	 * Whether the last garbage collection left the heap above the threshold.
	 * @return whether the heap is under pressure
	 */
	boolean isPressured() {
		return this.pressured;
	}

	/**
	 * Whether the limit may still grow: it is below its maximum and the heap is not under
	 * pressure.
	 * @return whether a task that waits may make it grow, now or later
	 */
	boolean mayGrow() {
		return this.limit < this.settings.maxLimit() && !this.pressured;
	}

	/**
	 * The share of the maximum heap used after the last garbage collection.
	 * @return 0 to 1, or {@code null} before the first collection
	 */
	Double heapUsedAfterGc() {
		double share = this.usedAfterGc;
		return (share >= 0) ? share : null;
	}

	/**
	 * How many collections left the heap above the threshold and decreased the limit.
	 * @return the count since the start
	 */
	long heapDecreases() {
		return this.decreases.sum();
	}

	/**
	 * Grows the limit because a task found every permit taken, unless it grew less than a
	 * growth interval ago, no collection has shown what the tasks let in last cost, or the
	 * heap is under pressure.
	 * @param waitingForCarrier virtual threads waiting for a carrier now, or -1 when the
	 * JVM does not say (read only when the other rules allow growth)
	 * @return whether the limit grew
	 */
	synchronized boolean grow(LongSupplier waitingForCarrier) {
		int current = this.limit;
		if (current >= this.settings.maxLimit() || this.pressured) {
			return false;
		}
		long now = this.clock.getAsLong();
		long sinceChange = now - this.lastChange;
		if (sinceChange < GROWTH_INTERVAL.toNanos()
				|| (this.collections == this.collectionsAtChange && sinceChange < QUIET_INTERVAL.toNanos())) {
			return false;
		}
		if (waitingForCarrier.getAsLong() > current / 4) {
			// the tasks let in last have not run yet, so no collection has seen what they cost
			return false;
		}
		// if what is in use grows in proportion, it reaches the threshold and no more (what is
		// in use without any task, which does not grow, makes it stay below)
		double used = this.usedAfterGc;
		double factor = (used > 0) ? Math.min(2, this.settings.heapThreshold() / used) : 2;
		int grown = (int) Math.min(this.settings.maxLimit(), Math.max(current + 1, Math.floor(current * factor)));
		changeTo(grown, now);
		return true;
	}

	/**
	 * Learns from a task that ended how long the tasks run.
	 * @param runNanos how long it ran, in nanoseconds
	 */
	void ended(long runNanos) {
		// racy on purpose: a lost sample of a smoothed average does not matter
		this.averageRunNanos += (runNanos - this.averageRunNanos) / 10;
	}

	/**
	 * Takes the heap's state after a garbage collection: above the threshold, the limit
	 * falls to three quarters of the tasks in flight (or stays, when it is lower already, or
	 * when the last decrease has not had the time to show).
	 * @param share the share (0 to 1) of the maximum heap still used
	 * @param inFlight the tasks holding a permit now
	 * @return what the pressure did to the limit, or {@code null} when the heap has room
	 */
	synchronized Pressure onCollection(double share, int inFlight) {
		this.usedAfterGc = share;
		this.collections++;
		boolean wasPressured = this.pressured;
		this.pressured = share >= this.settings.heapThreshold();
		if (!this.pressured) {
			return null;
		}
		int before = this.limit;
		long now = this.clock.getAsLong();
		long settle = (long) Math.min(MAX_SETTLE_NANOS, Math.max(MIN_SETTLE_NANOS, this.averageRunNanos));
		int after = before;
		if (!this.decreased || now - this.lastDecrease >= settle) {
			after = Math.max(this.settings.minLimit(), Math.min(before, (int) (inFlight * DECREASE)));
		}
		if (after < before) {
			changeTo(after, now);
			this.decreased = true;
			this.lastDecrease = now;
			this.decreases.increment();
		}
		return new Pressure(share, inFlight, before, after, !wasPressured);
	}

	private void changeTo(int limit, long now) {
		this.limit = limit;
		this.lastChange = now;
		this.collectionsAtChange = this.collections;
	}

	/**
	 * What a collection that left the heap above the threshold did to the limit.
	 *
	 * @param share the share (0 to 1) of the maximum heap still used
	 * @param inFlight the tasks holding a permit
	 * @param before the limit before
	 * @param after the limit after (the same when it did not decrease)
	 * @param firstOfEpisode whether the collection before it left the heap below the
	 * threshold
	 */
	record Pressure(double share, int inFlight, int before, int after, boolean firstOfEpisode) {

	}

}
