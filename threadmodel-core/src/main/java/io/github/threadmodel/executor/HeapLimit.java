package io.github.threadmodel.executor;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

import io.github.threadmodel.executor.ExecutorSettings.AdaptiveAdmission;

/**
 * The adaptive limit's algorithm: a concurrency limit that follows what the heap can hold.
 * It holds no permits, threads or listeners ({@link AdaptiveLimiter} does): it is told when
 * tasks wait, when they start with none in flight, when they end and what each garbage
 * collection left, and reads the time from the clock it is given and what the JVM allocated
 * from the {@link HeapAllocation} it is given. Three rules move it:
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
 * <li><b>Growth to what the room holds at what the tasks allocated.</b> Given the JVM's
 * readings ({@link HeapAllocation}), the limit may also grow, once the tasks let in at its
 * last change have run as long as tasks run and half the limit's worth of tasks that
 * began since have ended, to as many more tasks as three quarters of the room left up to
 * the threshold holds at what each of those tasks allocated (every thread's allocation in
 * that time, divided among them: a task holds at most what it allocated), without waiting
 * for a collection and without the doubling's bound. The time over which allocation is
 * counted begins anew at each change, and when a task starts with none in flight (what
 * was allocated before a burst is not its tasks'). The
 * room is the heap in use now, garbage included; when tasks of different run times mix,
 * the cost is raised by how much longer the longest task runs than the average one (the
 * longer ones are over-represented in flight). Tasks that run longer than
 * {@link #MAX_RUN_TIME_NANOS} keep to the rule above: their allocation was not seen whole.
 * A light burst so opens the limit after one run time instead of step by step, and a heavy
 * one no faster than its allocation shows it can. Of the two rules, the one that allows
 * more applies.</li>
 * </ul>
 * It starts at what the heap's room holds ({@link #startingLimit}); from there a burst
 * opens it step by step, each step checked by a collection that saw the step's tasks
 * through or by what they allocated. Growth is clocked by the collector, the tasks'
 * allocation and their run time, not by completed
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

	/**
	 * The share of the maximum heap that what is in use, the connections waiting in the queue
	 * ({@link #WAITING_CONNECTIONS_HEAP}) and the tasks the limit starts with may fill, when the
	 * threshold is higher: the rest is margin for what the tasks keep beyond the assumed heap
	 * and for what the application allocates meanwhile. Up to the threshold (0.8), 2000
	 * requests of 1 MB at once ran a 256 MB heap out before the first collection's pressure
	 * could lower the limit: the 180 let in kept allocating beside 1820 waiting connections.
	 */
	static final double STARTING_HEAP_SHARE = 0.5;

	/**
	 * The part of that share kept, when the limit starts, for the connections of a burst that
	 * wait in the queue, before any collection has shown them: 3500 at about 18 KB each
	 * (Tomcat's two 8 KB socket buffers are most of one). Started at half of a 128 MB heap
	 * without it, 47 requests of 1 MB let in beside 2000 waiting connections ran the heap out.
	 */
	static final long WAITING_CONNECTIONS_HEAP = 64L * 1024 * 1024;

	/** The share of the heap's room the growth by allocation fills: the rest is margin. */
	private static final double ALLOCATION_ROOM_SHARE = 0.75;

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

	/** The JVM's allocation and heap readings, or {@code null} when it gives none. */
	private final HeapAllocation heap;

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

	/** What {@link #heap} said had been allocated at the last collection, or -1. */
	private volatile long allocatedAtCollection = -1;

	/**
	 * When the window over which tasks' allocation is measured began: the last change of
	 * the limit, or the last time a task started with none in flight or a collection came
	 * while none waited (so that a burst's first tasks fall in it, and little else).
	 */
	private volatile long windowStart;

	/** What {@link #heap} said had been allocated when the window began, or -1. */
	private volatile long windowAllocated = -1;

	/** The tasks that began and ended within the window. */
	private final LongAdder windowTasks = new LongAdder();

	/** Their run times added up, in nanoseconds. */
	private final LongAdder windowRunNanos = new LongAdder();

	/** The longest of their run times, in nanoseconds. */
	private final LongAccumulator windowLongestRun = new LongAccumulator(Math::max, 0);

	/** Held while the limit is grown or a collection taken: one decision at a time. */
	private final ReentrantLock lock = new ReentrantLock();

	/**
	 * Creates a limit.
	 * @param settings the bounds and the threshold
	 * @param clock the time in nanoseconds, as {@link System#nanoTime()}
	 * @param start the limit to start at (see {@link #startingLimit})
	 */
	HeapLimit(AdaptiveAdmission settings, LongSupplier clock, int start) {
		this(settings, clock, start, null);
	}

	/**
	 * Creates a limit that may also grow by what tasks allocate.
	 * @param settings the bounds and the threshold
	 * @param clock the time in nanoseconds, as {@link System#nanoTime()}
	 * @param start the limit to start at (see {@link #startingLimit})
	 * @param heap the JVM's allocation and heap readings, or {@code null} when it gives none
	 */
	HeapLimit(AdaptiveAdmission settings, LongSupplier clock, int start, HeapAllocation heap) {
		this.settings = settings;
		this.clock = clock;
		this.heap = heap;
		this.limit = start;
		this.lastChange = clock.getAsLong() - QUIET_INTERVAL.toNanos();
		this.lastWait = this.lastChange;
		startWindow(clock.getAsLong());
	}

	/**
	 * The limit to start at: as many tasks as the heap's room up to the threshold, or up to
	 * {@link #STARTING_HEAP_SHARE} of it when that is lower, less what is in use and
	 * {@link #WAITING_CONNECTIONS_HEAP}, holds at {@link #ASSUMED_TASK_HEAP} each, within the
	 * bounds (on a 128 MB heap the minimum, on 256 MB about 40, on 512 MB about 170, on a
	 * 6 GB heap about 2900, on one of 20 GB or more the most the default bounds allow).
	 * @param settings the bounds and the threshold
	 * @param maxHeap the maximum heap, in bytes ({@link Runtime#maxMemory()})
	 * @param usedHeap the heap in use now, in bytes
	 * @return the starting limit
	 */
	static int startingLimit(AdaptiveAdmission settings, long maxHeap, long usedHeap) {
		double room = Math.min(settings.heapThreshold(), STARTING_HEAP_SHARE) * maxHeap - usedHeap
				- WAITING_CONNECTIONS_HEAP;
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
	 * ended yet, or they have not run as long as tasks run, or neither a collection since
	 * then nor what they allocated says what room is left, and the heap was not quiet for
	 * long), or the heap is under pressure.
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
		if (now - this.lastChange < GROWTH_INTERVAL.toNanos()) {
			return false;
		}
		int grown = Math.max(costShown(now) ? byRoomShown(current) : 0, byAllocation(now, current));
		if (grown <= current) {
			return false;
		}
		if (waitingForCarrier.getAsLong() > current / 4) {
			// the tasks let in last have not run yet, so nothing has seen what they cost
			return false;
		}
		changeTo(grown, now);
		return true;
	}

	/**
	 * The limit grown by the room the last collection showed: if what is in use grows in
	 * proportion, it reaches the threshold and no more (what is in use without any task,
	 * which does not grow, makes it stay below); at most a doubling.
	 */
	private int byRoomShown(int current) {
		double used = this.usedAfterGc;
		double factor = (used > 0) ? Math.min(2, this.settings.heapThreshold() / used) : 2;
		return (int) Math.min(this.settings.maxLimit(), Math.max(current + 1, Math.floor(current * factor)));
	}

	/**
	 * The limit grown to what the room holds at what the tasks of the window allocated each,
	 * or 0 when that cannot be told yet: no readings, tasks that run too long to be seen
	 * whole, a window shorter than a run, or no task that ran within it.
	 */
	private int byAllocation(long now, int current) {
		HeapAllocation heap = this.heap;
		long start = this.windowAllocated;
		long tasks = this.windowTasks.sum();
		long longest = Math.max(this.runTimeNanos, this.windowLongestRun.get());
		// half the limit's worth of tasks run through: the allocation of the ones still running
		// (also in the window, but not counted) weighs on the few counted
		if (heap == null || start < 0 || tasks < Math.max(1, current / 2) || longest > MAX_RUN_TIME_NANOS
				|| now - this.windowStart < longest) {
			return 0;
		}
		long allocated = heap.allocatedBytes().getAsLong();
		if (allocated < 0) {
			return 0;
		}
		// in flight, a task that runs k times longer is k times more likely to be found: a
		// mix of run times costs the average task's allocation times longest / average
		double averageRun = Math.max(1, (double) this.windowRunNanos.sum() / tasks);
		double perTask = Math.max(1, (double) (allocated - start) / tasks * Math.max(1, longest / averageRun));
		double room = this.settings.heapThreshold() * heap.maxHeap() - usedNow(heap, allocated);
		double more = Math.floor(ALLOCATION_ROOM_SHARE * room / perTask);
		return (int) Math.min(this.settings.maxLimit(), current + Math.max(0, more));
	}

	/**
	 * The heap in use now, garbage included, in bytes: what the JVM says, or what the last
	 * collection left plus what was allocated since, whichever is less.
	 */
	private double usedNow(HeapAllocation heap, long allocated) {
		double used = heap.usedHeap().getAsLong();
		double afterGc = this.usedAfterGc;
		long atCollection = this.allocatedAtCollection;
		if (afterGc >= 0 && atCollection >= 0) {
			used = Math.min(used, afterGc * heap.maxHeap() + (allocated - atCollection));
		}
		return used;
	}

	/** Begins the window over which tasks' allocation is measured (under the lock, or when created). */
	private void startWindow(long now) {
		this.windowStart = now;
		this.windowTasks.reset();
		this.windowRunNanos.reset();
		this.windowLongestRun.reset();
		this.windowAllocated = (this.heap != null) ? this.heap.allocatedBytes().getAsLong() : -1;
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
	 * Learns that a task starts with no other in flight: what was allocated until now was
	 * not the tasks', so the window begins anew (at most once per growth interval, and not
	 * while tasks wait).
	 */
	void firstInFlight() {
		if (this.heap == null) {
			return;
		}
		long now = this.clock.getAsLong();
		if (now - this.windowStart > GROWTH_INTERVAL.toNanos() && this.lock.tryLock()) {
			try {
				if (now - this.lastWait > WAIT_GAP_NANOS) {
					startWindow(now);
				}
			}
			finally {
				this.lock.unlock();
			}
		}
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
		if (this.heap != null && this.clock.getAsLong() - runNanos - this.windowStart >= 0) {
			// racy too: a task counted in the window that just began is one task in hundreds
			this.windowTasks.increment();
			this.windowRunNanos.add(runNanos);
			this.windowLongestRun.accumulate(runNanos);
		}
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
		if (this.heap != null) {
			this.allocatedAtCollection = this.heap.allocatedBytes().getAsLong();
			if (this.lastCollectionAt - this.lastWait > WAIT_GAP_NANOS) {
				// no task waits: the window moves on, so that it begins shortly before a burst
				startWindow(this.lastCollectionAt);
			}
		}
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
		startWindow(now);
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
