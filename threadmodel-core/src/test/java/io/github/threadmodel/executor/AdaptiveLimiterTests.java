package io.github.threadmodel.executor;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import io.github.threadmodel.executor.ExecutorSettings.AdaptiveAdmission;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link AdaptiveLimiter}'s permits on their own: a task that finds none free makes the limit
 * grow, the tasks holding one are what a decrease counts, a stale pressure asks for a full
 * collection. The clock and the heap's state are given by hand ({@link HeapLimitTests}
 * holds the limit's rules apart from the permits).
 */
class AdaptiveLimiterTests {

	private static final long INTERVAL = HeapLimit.GROWTH_INTERVAL.toNanos();

	private final AtomicLong now = new AtomicLong(1_000_000_000L);

	private final AdaptiveLimiter limit = limit(4, 4, () -> -1);

	@Test
	void growsOncePerCollectionWhileTasksWait() {
		// a task of an earlier burst ended at once: the tasks' run time is known
		this.limit.ended(0);
		assertThat(acquire(4)).isEqualTo(4);
		assertThat(this.limit.limit()).isEqualTo(4);
		// the fifth finds every permit taken: the limit doubles once a collection saw the four
		assertThat(acquire(10)).isZero();
		this.now.addAndGet(INTERVAL);
		this.limit.onHeapUsedAfterGc(0.2);
		assertThat(acquire(10)).isEqualTo(4);
		assertThat(this.limit.limit()).isEqualTo(8);
		// then not before a collection has shown what the tasks let in cost
		this.now.addAndGet(INTERVAL);
		assertThat(acquire(10)).isZero();
		this.limit.onHeapUsedAfterGc(0.2);
		assertThat(acquire(10)).isEqualTo(8);
		assertThat(this.limit.limit()).isEqualTo(16);
		// and not twice within an interval, however many collections come
		this.limit.onHeapUsedAfterGc(0.2);
		assertThat(acquire(10)).isZero();
	}

	@Test
	void startsAtTheLimitGivenAndGrowsFromThere() {
		AdaptiveLimiter started = limit(4, 30, () -> -1);
		assertThat(started.limit()).isEqualTo(30);
		started.ended(0);
		for (int i = 1; i <= 30; i++) {
			assertThat(started.tryAcquire()).isEqualTo(i);
		}
		// the 31st finds every permit taken: the limit doubles once a collection saw the 30
		assertThat(started.tryAcquire()).isZero();
		this.now.addAndGet(INTERVAL);
		started.onHeapUsedAfterGc(0.2);
		assertThat(started.tryAcquire()).isEqualTo(31);
		assertThat(started.limit()).isEqualTo(60);
	}

	@Test
	void growsNoFurtherThanTheMaximum() {
		this.limit.ended(0);
		for (int i = 0; i < 10; i++) {
			acquire(1000);
			this.now.addAndGet(INTERVAL);
			this.limit.onHeapUsedAfterGc(0.1);
		}
		assertThat(this.limit.limit()).isEqualTo(100);
		assertThat(this.limit.inFlight()).isEqualTo(100);
	}

	@Test
	void heapPressureTakesTheLimitBelowTheTasksInFlightAndStopsGrowth() {
		growTo(64);
		assertThat(acquire(64)).isEqualTo(64);
		this.limit.onHeapUsedAfterGc(0.85);
		assertThat(this.limit.limit()).isEqualTo(48);
		assertThat(this.limit.heapDecreases()).isEqualTo(1);
		assertThat(this.limit.heapUsedAfterGc()).isEqualTo(0.85);
		// while the heap is under pressure, waiting tasks do not make it grow
		release(40);
		this.now.addAndGet(INTERVAL);
		assertThat(acquire(30)).isEqualTo(24);
		assertThat(this.limit.limit()).isEqualTo(48);
		// a collection below the threshold lets it grow again
		this.limit.onHeapUsedAfterGc(0.4);
		assertThat(acquire(1)).isEqualTo(1);
		assertThat(this.limit.limit()).isEqualTo(96);
	}

	@Test
	void asksForAFullCollectionWhenThePressureReportedIsStaleAndTasksWait() {
		AtomicInteger collections = new AtomicInteger();
		AdaptiveLimiter limit = limit(4, 4, () -> -1, collections::incrementAndGet);
		limit.ended(0);
		for (int i = 0; i < 4; i++) {
			limit.tryAcquire();
		}
		limit.onHeapUsedAfterGc(0.9);
		// a task waits, but the report is fresh
		assertThat(limit.tryAcquire()).isZero();
		// no collection for a second: the report may be the old generation's garbage
		this.now.addAndGet(HeapLimit.QUIET_INTERVAL.toNanos());
		assertThat(limit.tryAcquire()).isZero();
		assertThat(collections).hasValue(1);
		// not again within the check interval
		this.now.addAndGet(StalePressureCheck.CHECK_INTERVAL.toNanos() - 1);
		assertThat(limit.tryAcquire()).isZero();
		assertThat(collections).hasValue(1);
		// once it has passed, if no collection came meanwhile
		this.now.addAndGet(1);
		assertThat(limit.tryAcquire()).isZero();
		assertThat(collections).hasValue(2);
		// the collection it asked for found room: tasks get in again
		limit.onHeapUsedAfterGc(0.3);
		assertThat(limit.tryAcquire()).isEqualTo(5);
	}

	@Test
	void waitsForTheTasksLetInToRunBeforeItGrows() {
		AtomicLong unscheduled = new AtomicLong(3);
		AdaptiveLimiter limit = limit(8, 8, unscheduled::get);
		limit.ended(0);
		for (int i = 0; i < 8; i++) {
			limit.tryAcquire();
		}
		assertThat(limit.tryAcquire()).isZero();
		this.now.addAndGet(INTERVAL);
		limit.onHeapUsedAfterGc(0.2);
		// a collection saw the eight, but three of them have not had a carrier yet: more than a quarter
		assertThat(limit.tryAcquire()).isZero();
		assertThat(limit.limit()).isEqualTo(8);
		unscheduled.set(2);
		assertThat(limit.tryAcquire()).isEqualTo(9);
		assertThat(limit.limit()).isEqualTo(16);
	}

	@Test
	void aTaskStartingWithNoneInFlightBeginsTheWindowOverWhichAllocationIsCounted() {
		AtomicLong allocated = new AtomicLong(5_000_000_000L);
		AdaptiveLimiter limiter = new AdaptiveLimiter(new AdaptiveAdmission(4, 10_000, 0.8), this.now::get, 100,
				() -> -1, () -> {
				}, new HeapAllocation(allocated::get, () -> 22_000_000, 100_000_000));
		// the rest of the application's startup allocates 50 MB
		this.now.addAndGet(2 * INTERVAL);
		allocated.addAndGet(50_000_000);
		// a burst: the first task starts with none in flight, 100 run, the next waits
		for (int i = 1; i <= 100; i++) {
			assertThat(limiter.tryAcquire()).isEqualTo(i);
		}
		assertThat(limiter.tryAcquire()).isZero();
		// 2 s later they end, having allocated 20 KB each, and waiting tasks take their permits
		this.now.addAndGet(TimeUnit.SECONDS.toNanos(2) + INTERVAL);
		allocated.addAndGet(100 * 20_000);
		for (int i = 0; i < 100; i++) {
			limiter.release(TimeUnit.SECONDS.toNanos(2));
			assertThat(limiter.tryAcquire()).isEqualTo(100);
		}
		// the limit grows to what the room holds at 20 KB a task (0.75 * 58 MB), the startup's
		// 50 MB left out (counted, it would be 520 KB a task: 83 more)
		assertThat(limiter.tryAcquire()).isEqualTo(101);
		assertThat(limiter.limit()).isEqualTo(2275);
	}

	private AdaptiveLimiter limit(int min, int start, LongSupplier waitingForCarrier) {
		return limit(min, start, waitingForCarrier, () -> {
		});
	}

	private AdaptiveLimiter limit(int min, int start, LongSupplier waitingForCarrier, Runnable collect) {
		return new AdaptiveLimiter(new AdaptiveAdmission(min, 100, 0.8), this.now::get, start, waitingForCarrier,
				collect);
	}

	private void growTo(int target) {
		while (this.limit.limit() < target) {
			acquire(this.limit.limit() + 1);
			release(this.limit.inFlight());
			this.now.addAndGet(INTERVAL);
			this.limit.onHeapUsedAfterGc(0.1);
		}
	}

	/** Asks for up to {@code count} permits, as waiting tasks would; answers how many it got. */
	private int acquire(int count) {
		int acquired = 0;
		for (int i = 0; i < count && this.limit.tryAcquire() > 0; i++) {
			acquired++;
		}
		return acquired;
	}

	private void release(int count) {
		for (int i = 0; i < count; i++) {
			this.limit.release(0);
		}
	}

}
