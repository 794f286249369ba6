package io.github.threadmodel.executor;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * A concurrency limit for virtual threads that follows what the heap can hold, so that a
 * burst waits in the queue instead of running the heap out. Two rules move it:
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
 * {@link #GROWTH_INTERVAL}, or once per
 * {@link #QUIET_INTERVAL} when no collection comes (a heap that quiet is in no danger);
 * not at all while the heap is under pressure.</li>
 * </ul>
 * It starts at what the heap's room holds before any collection has shown what a task
 * costs: the heap up to the threshold less what is in use, at {@link #ASSUMED_TASK_HEAP} a
 * task, within the bounds (on a 256 MB heap about 150, on a heap of several GB the most
 * the bounds allow); from there a burst opens it step by step, each step checked by a
 * collection. Started at {@link AdaptiveAdmission#minLimit()}, every burst on a large heap
 * waited for the limit to grow (100 simultaneous 1-s requests took 1.67 s on average,
 * against 1.07 s without a limit). Started at its maximum, a burst of 3000 requests was
 * admitted whole before the first collection showed the pressure and ran a 128 MB heap
 * out; growing every 100 ms without waiting for a collection, it let 2643 requests in
 * before one did and ran a 256 MB heap out; doubling while the heap was under 40 %, it let
 * 2700 in and ran a 256 MB heap out too; and with a build taking the same two cores, the
 * tasks let in ran so late that 2582 were in before a collection showed it (docs/overload.md).
 * <p>
 * Growth is clocked by the collector, not by completed tasks as in the additive-increase
 * and latency-gradient algorithms of Netflix's concurrency-limits: tasks that run a second
 * each would open the limit by at most a doubling per second. Run times are not a signal
 * either: they differ by endpoint far more than load changes them.
 * <p>
 * One instance serves an executor for its life: the virtual threads of each switch share
 * it, with its count of tasks in flight.
 */
final class AdaptiveLimit extends Permits implements AutoCloseable {

	/** The algorithm's name, as the endpoint shows it. */
	static final String ALGORITHM = "heap";

	/** The shortest time between two growths of the limit. */
	static final Duration GROWTH_INTERVAL = Duration.ofMillis(100);

	/**
	 * How long the limit waits for a garbage collection to show what the tasks it let in
	 * last cost before it grows without one (a heap that quiet is in no danger).
	 */
	static final Duration QUIET_INTERVAL = Duration.ofSeconds(1);

	/**
	 * What a task is assumed to hold on the heap when the limit starts: far above what a
	 * request measured (about 80 KB: 2643 requests ran a 256 MB heap out), so that the
	 * first collection comes well before the heap is full.
	 */
	static final long ASSUMED_TASK_HEAP = 1024 * 1024;

	/** The share of the tasks in flight the limit falls to at heap pressure. */
	private static final double DECREASE = 0.75;

	/** Bounds of the time a decrease waits for the previous one to show (the tasks' average run time). */
	private static final long MIN_SETTLE_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

	private static final long MAX_SETTLE_NANOS = TimeUnit.SECONDS.toNanos(5);

	/** The shortest time between two collections the limit asks for to check a stale pressure. */
	static final Duration CHECK_INTERVAL = Duration.ofSeconds(5);

	/** The shortest time between two WARN lines about heap pressure. */
	private static final long WARN_INTERVAL_NANOS = TimeUnit.MINUTES.toNanos(1);

	private static final Log logger = LogFactory.getLog(AdaptiveLimit.class);

	private final AdaptiveAdmission settings;

	private final LongSupplier clock;

	private volatile int limit;

	private final LongAdder heapDecreases = new LongAdder();

	/** The share of the heap used after the last collection, or -1 before the first. */
	private volatile double heapUsedAfterGc = -1;

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

	/** When the last collection was reported, and when the limit last asked for one. */
	private volatile long lastCollection;

	private volatile long lastCheck;

	private final Runnable collect;

	/** Virtual threads waiting for a carrier now, or -1 when the JVM does not say. */
	private final LongSupplier unscheduled;

	/** Garbage collections seen, and how many had been seen when the limit last changed. */
	private volatile long collections;

	private volatile long collectionsAtChange;

	/** Whether a dispatch is already scheduled for the end of the growth interval. */
	private final AtomicBoolean growthScheduled = new AtomicBoolean();

	private final Executor growthTimer;

	/** Whether the last collection left the heap above the threshold (written under this lock). */
	private volatile boolean pressured;

	/** Whether the WARN about the limit at its minimum was logged in this pressure episode. */
	private boolean minimumWarned;

	private boolean warned;

	private long lastWarning;

	private final HeapPressure heapPressure;

	/**
	 * Creates a limit and starts listening to the garbage collector.
	 * @param settings the bounds
	 */
	AdaptiveLimit(AdaptiveAdmission settings) {
		this(settings, System::nanoTime, true, AdaptiveLimit::collectGarbage, AdaptiveLimit::unscheduledVirtualThreads,
				startingLimit(settings, Runtime.getRuntime().maxMemory(),
						Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory()));
	}

	/**
	 * Creates a limit.
	 * @param settings the bounds
	 * @param clock the time in nanoseconds, as {@link System#nanoTime()}
	 * @param listenToCollector whether to take the heap's state from the JVM's garbage
	 * collections (tests give it with {@link #onHeapUsedAfterGc} instead)
	 */
	AdaptiveLimit(AdaptiveAdmission settings, LongSupplier clock, boolean listenToCollector) {
		this(settings, clock, listenToCollector, () -> {
		}, () -> -1);
	}

	/**
	 * Creates a limit.
	 * @param settings the bounds
	 * @param clock the time in nanoseconds, as {@link System#nanoTime()}
	 * @param listenToCollector whether to take the heap's state from the JVM's garbage
	 * collections
	 * @param collect asks for a full garbage collection (see {@link #checkStalePressure})
	 * @param unscheduled virtual threads waiting for a carrier now, or -1 when unknown
	 */
	AdaptiveLimit(AdaptiveAdmission settings, LongSupplier clock, boolean listenToCollector, Runnable collect,
			LongSupplier unscheduled) {
		this(settings, clock, listenToCollector, collect, unscheduled, settings.minLimit());
	}

	/**
	 * Creates a limit.
	 * @param settings the bounds
	 * @param clock the time in nanoseconds, as {@link System#nanoTime()}
	 * @param listenToCollector whether to take the heap's state from the JVM's garbage
	 * collections
	 * @param collect asks for a full garbage collection (see {@link #checkStalePressure})
	 * @param unscheduled virtual threads waiting for a carrier now, or -1 when unknown
	 * @param start the limit to start at (see {@link #startingLimit})
	 */
	AdaptiveLimit(AdaptiveAdmission settings, LongSupplier clock, boolean listenToCollector, Runnable collect,
			LongSupplier unscheduled, int start) {
		this.settings = settings;
		this.clock = clock;
		this.collect = collect;
		this.unscheduled = unscheduled;
		this.lastCheck = clock.getAsLong() - CHECK_INTERVAL.toNanos();
		this.lastCollection = clock.getAsLong();
		this.limit = start;
		// free to grow at the first task that waits
		this.lastChange = clock.getAsLong() - QUIET_INTERVAL.toNanos();
		// The JDK's shared delay scheduler, as for queue timeouts: nothing to stop.
		this.growthTimer = CompletableFuture.delayedExecutor(GROWTH_INTERVAL.toNanos(), TimeUnit.NANOSECONDS);
		this.heapPressure = listenToCollector ? HeapPressure.start(this::onCollection) : null;
		if (listenToCollector && this.heapPressure == null) {
			logger.warn("This JVM does not report its garbage collections: the adaptive limit of virtual threads "
					+ "grows to " + settings.maxLimit() + " (app.threads.virtual.adaptive.max-limit) as requests "
					+ "wait, and never falls");
		}
	}

	/**
	 * The limit to start at: as many tasks as the heap's room up to the threshold holds at
	 * {@link #ASSUMED_TASK_HEAP} each, within the bounds.
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
	 * Whether the last garbage collection left the heap above the threshold.
	 * @return whether the heap is under pressure
	 */
	boolean isPressured() {
		return this.pressured;
	}

	@Override
	int tryAcquire() {
		int acquired = super.tryAcquire();
		if (acquired == 0 && grow()) {
			acquired = super.tryAcquire();
		}
		if (acquired == 0) {
			if (this.pressured) {
				checkStalePressure();
			}
			else {
				retryAfterInterval();
			}
		}
		return acquired;
	}

	/**
	 * Asks for a full garbage collection when the heap has been reported under pressure
	 * but no collection has come for a {@link #QUIET_INTERVAL} while tasks wait, at most once
	 * per {@link #CHECK_INTERVAL}. Usage after a young collection counts what ended tasks
	 * left in the old generation until a mixed or full collection frees it, and with the
	 * limit low the few tasks let in allocate too little for any collection to come: the
	 * limit would stay at its minimum on a heap that is mostly garbage. Measured: 50 s at
	 * 20 requests at once on a 256 MB heap 87 % full after young collections, with nothing
	 * in flight. The full collection says what is live; with -XX:+DisableExplicitGC it does
	 * nothing and the limit waits for the next collection.
	 */
	private void checkStalePressure() {
		long now = this.clock.getAsLong();
		if (now - this.lastCollection >= QUIET_INTERVAL.toNanos() && now - this.lastCheck >= CHECK_INTERVAL.toNanos()) {
			synchronized (this) {
				if (now - this.lastCheck < CHECK_INTERVAL.toNanos()) {
					return;
				}
				this.lastCheck = now;
			}
			logger.debug("Heap pressure reported by the last collection " + (now - this.lastCollection) / 1_000_000
					+ " ms ago while requests wait: asking for a full collection to see what is live");
			Thread.ofVirtual().name("adaptive-limit-gc").start(this.collect);
		}
	}

	/**
	 * Virtual threads waiting for a carrier, from the JDK's scheduler (JDK 24+).
	 */
	private static long unscheduledVirtualThreads() {
		VirtualThreadScheduler scheduler = VirtualThreadScheduler.read();
		return (scheduler != null) ? scheduler.queued() : -1;
	}

	/**
	 * A full collection, as {@link System#gc()} asks for one.
	 */
	private static void collectGarbage() {
		System.gc();
	}

	/**
	 * Has the waiting tasks dispatched again once the limit may grow, so that they do not
	 * wait for the next arrival or completion; not while the heap is under pressure (the
	 * next collection below the threshold dispatches them) nor at the maximum.
	 */
	private void retryAfterInterval() {
		if (this.limit < this.settings.maxLimit() && !this.pressured
				&& this.growthScheduled.compareAndSet(false, true)) {
			this.growthTimer.execute(() -> {
				this.growthScheduled.set(false);
				dispatch();
			});
		}
	}

	/**
	 * Grows the limit when a task finds every permit taken, unless it grew less than a
	 * growth interval ago or the heap is under pressure.
	 * @return whether the limit grew
	 */
	private synchronized boolean grow() {
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
		// if what is in use grows in proportion, it reaches the threshold and no more (what is
		// in use without any task, which does not grow, makes it stay below)
		long unscheduled = this.unscheduled.getAsLong();
		if (unscheduled > current / 4) {
			// the tasks let in last have not run yet, so no collection has seen what they cost
			return false;
		}
		double used = this.heapUsedAfterGc;
		double factor = (used > 0) ? Math.min(2, this.settings.heapThreshold() / used) : 2;
		int grown = (int) Math.min(this.settings.maxLimit(), Math.max(current + 1, Math.floor(current * factor)));
		changeTo(grown, now);
		return true;
	}

	private void changeTo(int limit, long now) {
		this.limit = limit;
		this.lastChange = now;
		this.collectionsAtChange = this.collections;
	}

	@Override
	void ended(long startedAt) {
		// racy on purpose: a lost sample of a smoothed average does not matter
		this.averageRunNanos += (this.clock.getAsLong() - startedAt - this.averageRunNanos) / 10;
	}

	@Override
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
	 * The share of the maximum heap used after the last garbage collection.
	 * @return 0 to 1, or {@code null} before the first collection or when the JVM does not
	 * report them
	 */
	Double heapUsedAfterGc() {
		double share = this.heapUsedAfterGc;
		return (share >= 0) ? share : null;
	}

	/**
	 * How many collections left the heap above the threshold and decreased the limit.
	 * @return the count since the start
	 */
	long heapDecreases() {
		return this.heapDecreases.sum();
	}

	/**
	 * Takes the heap's state after a young (not full) garbage collection, as
	 * {@link #onCollection}.
	 * @param share the share (0 to 1) of the maximum heap still used
	 */
	void onHeapUsedAfterGc(double share) {
		onCollection(share, false);
	}

	/**
	 * Takes the heap's state after a garbage collection: above the threshold, the limit
	 * falls to three quarters of the tasks in flight (or stays, when it is lower already, or
	 * when the last decrease has not had the time to show).
	 * @param share the share (0 to 1) of the maximum heap still used
	 * @param full whether it was a full collection, after which only what is live is left
	 */
	synchronized void onCollection(double share, boolean full) {
		this.heapUsedAfterGc = share;
		this.collections++;
		this.lastCollection = this.clock.getAsLong();
		boolean wasPressured = this.pressured;
		this.pressured = share >= this.settings.heapThreshold();
		if (!this.pressured) {
			dispatch(); // the limit may grow now, if tasks wait
			return;
		}
		int inFlight = inFlight();
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
			this.heapDecreases.increment();
		}
		if (!wasPressured) {
			this.minimumWarned = false;
		}
		String figures = "%.0f%% of the heap used after a garbage collection (threshold %.0f%%), %d requests in flight"
			.formatted(share * 100, this.settings.heapThreshold() * 100, inFlight);
		// only a full collection shows that what fills the heap is live: after a young one the
		// old generation may still hold the garbage of ended requests
		if (full && after <= this.settings.minLimit() && inFlight <= this.settings.minLimit()
				&& !this.minimumWarned) {
			this.minimumWarned = true;
			logger.warn("Heap pressure after a full collection with the virtual-thread admission limit at its minimum ("
					+ after + ", app.threads.virtual.adaptive.min-limit): " + figures
					+ ". The requests in flight do not explain it: give the JVM more heap (-Xmx), or look for what "
					+ "else fills it");
		}
		else if (!wasPressured && (!this.warned || now - this.lastWarning >= WARN_INTERVAL_NANOS)) {
			this.warned = true;
			this.lastWarning = now;
			logger.warn("Heap pressure: " + figures + "; the virtual-thread admission limit goes from " + before
					+ " to " + after + ", requests beyond it wait in arrival order "
					+ "(with app.threads.virtual.queue-timeout, up to that long, then they are answered 503)");
		}
		else if (logger.isDebugEnabled()) {
			logger.debug("Heap pressure: " + figures + "; admission limit " + before + " -> " + after);
		}
	}

	/**
	 * Stops listening to the garbage collector.
	 */
	@Override
	public void close() {
		if (this.heapPressure != null) {
			this.heapPressure.close();
		}
	}

	@Override
	public String toString() {
		return "AdaptiveLimit[" + ALGORITHM + ", limit=" + limit() + ", inFlight=" + inFlight() + "]";
	}

}
