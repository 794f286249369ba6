package io.github.threadmodel.executor;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

import io.github.threadmodel.executor.ExecutorSettings.AdaptiveAdmission;
import io.github.threadmodel.internal.scheduler.VirtualThreadScheduler;

/**
 * The limiter of an {@link AdaptiveAdmission}: the permits of virtual threads under a
 * limit that follows what the heap can hold, so that a burst waits in the queue instead of
 * running the heap out. The limit itself comes from its algorithm, {@link HeapLimit} (the
 * split of Netflix's concurrency-limits: a limit algorithm, a limiter holding the permits).
 * A task that finds every permit taken asks the limit to grow; when it may not grow yet,
 * the waiting tasks are dispatched again once the growth interval has passed, so that they
 * do not wait for the next arrival or completion. The heap's state comes from the garbage
 * collector ({@link HeapPressure}); a pressure reported long ago while tasks wait is
 * checked with a full collection ({@link StalePressureCheck}).
 * <p>
 * One instance serves an executor while its admission stays adaptive with the same bounds:
 * the virtual threads of each switch share it, with its count of tasks in flight; it is
 * closed when a switch leaves adaptive admission.
 */
final class AdaptiveLimiter extends Permits implements AutoCloseable {

	private final HeapLimit algorithm;

	/** Virtual threads waiting for a carrier now, or -1 when the JVM does not say. */
	private final LongSupplier waitingForCarrier;

	private final StalePressureCheck staleCheck;

	private final HeapPressureLog log;

	/** Whether a dispatch is already scheduled for the end of the growth interval. */
	private final AtomicBoolean growthScheduled = new AtomicBoolean();

	// The JDK's shared delay scheduler, as for queue timeouts: nothing to stop.
	private final Executor growthTimer = CompletableFuture
		.delayedExecutor(HeapLimit.GROWTH_INTERVAL.toNanos(), TimeUnit.NANOSECONDS);

	private final HeapPressure heapPressure;

	private volatile boolean closed;

	/**
	 * Creates a limit that starts at what the heap's room holds and listens to the garbage
	 * collector.
	 * @param settings the bounds
	 */
	AdaptiveLimiter(AdaptiveAdmission settings) {
		this(settings, System::nanoTime, startingLimit(settings), VirtualThreadScheduler::readQueued,
				StalePressureCheck.systemGcInBackground(), HeapAllocation.ofThisJvm(), true);
	}

	/**
	 * Creates a limit that does not listen to the garbage collector nor read what the JVM
	 * allocates: the heap's state is given with {@link #onHeapUsedAfterGc} (for tests).
	 * @param settings the bounds
	 * @param clock the time in nanoseconds, as {@link System#nanoTime()}
	 * @param start the limit to start at
	 * @param waitingForCarrier virtual threads waiting for a carrier now, or -1 when unknown
	 * @param collect asks for a full garbage collection (see {@link StalePressureCheck})
	 */
	AdaptiveLimiter(AdaptiveAdmission settings, LongSupplier clock, int start, LongSupplier waitingForCarrier,
			Runnable collect) {
		this(settings, clock, start, waitingForCarrier, collect, null);
	}

	/**
	 * Creates a limit that does not listen to the garbage collector and reads what the JVM
	 * allocates from the readings given (for tests).
	 * @param settings the bounds
	 * @param clock the time in nanoseconds, as {@link System#nanoTime()}
	 * @param start the limit to start at
	 * @param waitingForCarrier virtual threads waiting for a carrier now, or -1 when unknown
	 * @param collect asks for a full garbage collection (see {@link StalePressureCheck})
	 * @param heap the allocation and heap readings, or {@code null} for none
	 */
	AdaptiveLimiter(AdaptiveAdmission settings, LongSupplier clock, int start, LongSupplier waitingForCarrier,
			Runnable collect, HeapAllocation heap) {
		this(settings, clock, start, waitingForCarrier, collect, heap, false);
	}

	private AdaptiveLimiter(AdaptiveAdmission settings, LongSupplier clock, int start, LongSupplier waitingForCarrier,
			Runnable collect, HeapAllocation heap, boolean listenToCollector) {
		this.algorithm = new HeapLimit(settings, clock, start, heap);
		this.waitingForCarrier = waitingForCarrier;
		this.staleCheck = new StalePressureCheck(clock, collect);
		this.log = new HeapPressureLog(settings, clock);
		this.heapPressure = listenToCollector ? HeapPressure.start(this::onCollection) : null;
		if (listenToCollector && this.heapPressure == null) {
			HeapPressureLog.noCollectionsReported(settings);
		}
	}

	private static int startingLimit(AdaptiveAdmission settings) {
		Runtime runtime = Runtime.getRuntime();
		return HeapLimit.startingLimit(settings, runtime.maxMemory(), runtime.totalMemory() - runtime.freeMemory());
	}

	@Override
	int tryAcquire() {
		int acquired = super.tryAcquire();
		if (acquired == 1) {
			this.algorithm.firstInFlight();
		}
		if (acquired == 0 && this.algorithm.grow(this.waitingForCarrier)) {
			acquired = super.tryAcquire();
		}
		if (acquired == 0) {
			if (this.algorithm.isPressured()) {
				this.staleCheck.tasksWait();
			}
			else {
				retryAfterInterval();
			}
		}
		return acquired;
	}

	/**
	 * Has the waiting tasks dispatched again once the limit may grow; not while the heap is
	 * under pressure (the next collection below the threshold dispatches them) nor at the
	 * maximum.
	 */
	private void retryAfterInterval() {
		if (this.algorithm.mayGrow() && this.growthScheduled.compareAndSet(false, true)) {
			this.growthTimer.execute(() -> {
				this.growthScheduled.set(false);
				dispatch();
			});
		}
	}

	@Override
	void ended(long runNanos) {
		this.algorithm.ended(runNanos);
	}

	@Override
	int limit() {
		return this.algorithm.limit();
	}

	/**
	 * The bounds the limit moves within.
	 * @return the settings
	 */
	AdaptiveAdmission settings() {
		return this.algorithm.settings();
	}

	/**
	 * Whether the last garbage collection left the heap above the threshold.
	 * @return whether the heap is under pressure
	 */
	boolean isPressured() {
		return this.algorithm.isPressured();
	}

	/**
	 * The share of the maximum heap used after the last garbage collection.
	 * @return 0 to 1, or {@code null} before the first collection or when the JVM does not
	 * report them
	 */
	Double heapUsedAfterGc() {
		return this.algorithm.heapUsedAfterGc();
	}

	/**
	 * How many collections left the heap above the threshold and decreased the limit.
	 * @return the count since the start
	 */
	long heapDecreases() {
		return this.algorithm.heapDecreases();
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
	 * Takes the heap's state after a garbage collection: with room, the waiting tasks are
	 * dispatched (the limit may grow now); above the threshold, the limit falls.
	 * @param share the share (0 to 1) of the maximum heap still used
	 * @param full whether it was a full collection, after which only what is live is left
	 */
	void onCollection(double share, boolean full) {
		this.staleCheck.collected();
		HeapLimit.Pressure pressure = this.algorithm.onCollection(share, inFlight());
		if (pressure == null) {
			dispatch();
		}
		else {
			this.log.pressure(pressure, full);
		}
	}

	/**
	 * Stops listening to the garbage collector.
	 */
	@Override
	public void close() {
		this.closed = true;
		if (this.heapPressure != null) {
			this.heapPressure.close();
		}
	}

	/**
	 * Whether it was closed: it no longer listens to the garbage collector.
	 * @return {@code true} once closed
	 */
	boolean isClosed() {
		return this.closed;
	}

	@Override
	public String toString() {
		return "AdaptiveLimiter[" + HeapLimit.ALGORITHM + ", limit=" + limit() + ", inFlight=" + inFlight() + "]";
	}

}
