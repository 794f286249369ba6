package io.github.threadmodel.executor;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

import io.github.threadmodel.executor.ExecutorSettings.AdaptiveAdmission;

/**
 * The adaptive limit's algorithm: a concurrency limit that follows what the heap can hold.
 * It holds no permits, threads or listeners ({@link AdaptiveLimiter} does): it is told when
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
 * <li><b>Growth while tasks wait, once the tasks let in have shown their cost.</b> When a
 * task finds every permit taken, the limit grows by the room the last collection showed,
 * {@code threshold / used} (at most a doubling): if what is in use grows in proportion, it
 * reaches the threshold and no further. That holds only if the collection saw the tasks
 * let in last at their full cost, and a task may allocate what it keeps at any time of its
 * run (a traced request with a big body fills its spans and its body as it goes): a
 * collection that comes before the tasks have allocated shows room that is not there, and
 * by the time the pressure shows, the tasks in flight keep allocating whatever the limit
 * does. So the limit grows only once the tasks it let in last (at its last change, or
 * before tasks began to wait, as a burst after a quiet time) have run as long as tasks run
 * ({@link #runTime()}, learned from the tasks that ended) and a collection has come
 * after that; or when no collection has come for a {@link #QUIET_INTERVAL} since then (a
 * heap that quiet is in no danger). Before any task has ended it does not grow at all:
 * nothing has shown yet what a task costs, and the limit it starts at assumes the most
 * ({@link #ASSUMED_TASK_HEAP}). It also grows at most once per {@link #GROWTH_INTERVAL};
 * on JDK 24+ only once at most a quarter of the limit's worth of virtual threads wait for a
 * carrier (a task that has not run yet has not shown its cost either); not at all while the
 * heap is under pressure.</li>
 * </ul>
 * It starts at what the heap's room holds ({@link #startingLimit}); from there a burst
 * opens it step by step, each step checked by a collection that saw the step's tasks
 * through. Growth is clocked by the collector and the tasks' run time, not by completed
 * tasks alone as in the additive-increase algorithms of Netflix's concurrency-limits (one
 * task more per completion), nor by latency: run times differ by endpoint far more than
 * load changes them. How the rules came to be:
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

	/**
	 * The longest the limit waits for the tasks it let in to show their cost: tasks that run
	 * longer (long polls, downloads) would hold a burst back for as long, and a task holds
	 * what it keeps well before then.
	 */
	private static final long MAX_RUN_TIME_NANOS = TimeUnit.SECONDS.toNanos(5);

	/**
	 * A pause in the calls of {@link #grow} longer than this means that tasks stopped waiting:
	 * while they wait, every release and every growth interval calls it.
	 */
	private static final long WAIT_GAP_NANOS = 2 * GROWTH_INTERVAL.toNanos();

	/** How fast the run time falls back after a longer task: this part of the gap per shorter task. */
	private static final int RUN_TIME_DECAY = 16;

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

	/**
	 * How long the tasks run, in nanoseconds, for growth: the longer tasks rather than the
	 * average (a quick request beside slow ones must not hurry it), or -1 before any task has
	 * ended.
	 */
	private volatile long runTimeNanos = -1;

	/**
	 * When tasks began to wait, after a while when none did: the tasks let in just before
	 * (a burst after a quiet time) have not shown their cost yet either.
	 */
	private long waitingSince;

	/** When a task last found every permit taken. */
	private long lastWait;

	/** When the limit last decreased. */
	private long lastDecrease;

	private boolean decreased;

	/** Garbage collections seen. */
	private volatile long collections;

	/** When the last collection was reported ({@link #clock}), once {@link #collections} is not 0. */
	private volatile long lastCollectionAt;

	/** Whether the last collection left the heap above the threshold (written under this lock). */
	private volatile boolean pressured;

	/** Held while the limit is grown or a collection taken: one decision at a time. */
	private final ReentrantLock lock = new ReentrantLock();

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
		this.lastChange = clock.getAsLong() - QUIET_INTERVAL.toNanos();
		this.lastWait = this.lastChange;
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
	 * Grows the limit because a task found every permit taken, unless it changed less than a
	 * growth interval ago, the tasks it let in last have not shown their cost (no task has
	 * ended yet, or they have not run as long as tasks run, or no collection came since then
	 * and the heap was not quiet for long), or the heap is under pressure.
	 * <p>
	 * Never waits for another caller: when one is deciding, this one leaves it to it. A
	 * caller may be a server's poller or selector thread, which must not wait behind a
	 * virtual thread that holds the decision and waits for a carrier (all of them busy with
	 * requests): the server would read no connection meanwhile, health probes included.
	 * @param waitingForCarrier virtual threads waiting for a carrier now, or -1 when the
	 * JVM does not say (read only when the other rules allow growth)
	 * @return whether the limit grew
	 */
	boolean grow(LongSupplier waitingForCarrier) {
		if (!this.lock.tryLock()) {
			return false;
		}
		try {
			return growLocked(waitingForCarrier);
		}
		finally {
			this.lock.unlock();
		}
	}

	private boolean growLocked(LongSupplier waitingForCarrier) {
		long now = this.clock.getAsLong();
		if (now - this.lastWait > WAIT_GAP_NANOS) {
			this.waitingSince = now;
		}
		this.lastWait = now;
		int current = this.limit;
		if (current >= this.settings.maxLimit() || this.pressured) {
			return false;
		}
		if (now - this.lastChange < GROWTH_INTERVAL.toNanos() || !costShown(now)) {
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
	 * Whether the tasks let in since the last change, or since tasks began to wait, have shown
	 * what they cost: they have run as long as tasks run, and a collection came after that
	 * (it saw them holding whatever they keep until they end), or none came for a quiet
	 * interval (they allocate little).
	 */
	private boolean costShown(long now) {
		long runTime = this.runTimeNanos;
		if (runTime < 0) {
			return false;
		}
		long letIn = (this.waitingSince - this.lastChange > 0) ? this.waitingSince : this.lastChange;
		long shownAt = letIn + Math.min(runTime, MAX_RUN_TIME_NANOS);
		if (now - shownAt < 0) {
			return false;
		}
		boolean collectedSince = this.collections > 0 && this.lastCollectionAt - shownAt > 0;
		return collectedSince || now - shownAt >= QUIET_INTERVAL.toNanos();
	}

	/**
	 * How long the tasks run, as growth waits for it.
	 * @return the run time in nanoseconds, or -1 before any task has ended
	 */
	long runTime() {
		return this.runTimeNanos;
	}

	/**
	 * Learns from a task that ended how long the tasks run.
	 * @param runNanos how long it ran, in nanoseconds
	 */
	void ended(long runNanos) {
		// racy on purpose: a lost sample of a smoothed average does not matter
		this.averageRunNanos += (runNanos - this.averageRunNanos) / 10;
		long runTime = this.runTimeNanos;
		this.runTimeNanos = (runNanos >= runTime) ? runNanos : runTime - (runTime - runNanos) / RUN_TIME_DECAY;
	}

	/**
	 * Takes the heap's state after a garbage collection: above the threshold, the limit
	 * falls to three quarters of the tasks in flight (or stays, when it is lower already, or
	 * when the last decrease has not had the time to show).
	 * @param share the share (0 to 1) of the maximum heap still used
	 * @param inFlight the tasks holding a permit now
	 * @return what the pressure did to the limit, or {@code null} when the heap has room
	 */
	Pressure onCollection(double share, int inFlight) {
		this.lock.lock();
		try {
			return onCollectionLocked(share, inFlight);
		}
		finally {
			this.lock.unlock();
		}
	}

	private Pressure onCollectionLocked(double share, int inFlight) {
		this.usedAfterGc = share;
		this.collections++;
		this.lastCollectionAt = this.clock.getAsLong();
		boolean wasPressured = this.pressured;
		this.pressured = share >= this.settings.heapThreshold();
		if (!this.pressured) {
			return null;
		}
		int before = this.limit;
		long now = this.lastCollectionAt;
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
