package io.github.threadmodel.executor;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.awaitility.Awaitility;
import org.hamcrest.Matchers;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rules of {@link AdaptiveLimit} on their own, with a clock and the heap's state given
 * by hand.
 */
class AdaptiveLimitTests {

	private static final long INTERVAL = AdaptiveLimit.GROWTH_INTERVAL.toNanos();

	private final AtomicLong now = new AtomicLong(1_000_000_000L);

	private final AdaptiveLimit limit = new AdaptiveLimit(new AdaptiveAdmission(4, 100, 0.8), this.now::get, false);

	@Test
	void growsOncePerCollectionWhileTasksWait() {
		assertThat(acquire(4)).isEqualTo(4);
		assertThat(this.limit.limit()).isEqualTo(4);
		// the fifth finds every permit taken: the limit doubles at once
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
	void startsWhereTheHeapsRoomHoldsEveryTaskWithinTheBounds() {
		AdaptiveAdmission settings = new AdaptiveAdmission(20, 10_000, 0.8);
		long mb = 1024 * 1024;
		// 256 MB, 40 MB in use: 0.8 * 256 - 40 = 164 MB of room, 1 MB a task
		assertThat(AdaptiveLimit.startingLimit(settings, 256 * mb, 40 * mb)).isEqualTo(164);
		// a heap already past the threshold, or too small: the minimum
		assertThat(AdaptiveLimit.startingLimit(settings, 256 * mb, 230 * mb)).isEqualTo(20);
		assertThat(AdaptiveLimit.startingLimit(settings, 32 * mb, 10 * mb)).isEqualTo(20);
		// 16 GB: the maximum; and a JVM without a heap limit says Long.MAX_VALUE
		assertThat(AdaptiveLimit.startingLimit(settings, 16 * 1024 * mb, 100 * mb)).isEqualTo(10_000);
		assertThat(AdaptiveLimit.startingLimit(settings, Long.MAX_VALUE, 100 * mb)).isEqualTo(10_000);
	}

	@Test
	void startsAtTheLimitGivenAndGrowsFromThere() {
		AdaptiveLimit started = new AdaptiveLimit(new AdaptiveAdmission(4, 100, 0.8), this.now::get, false, () -> {
		}, () -> -1, 30);
		assertThat(started.limit()).isEqualTo(30);
		for (int i = 1; i <= 30; i++) {
			assertThat(started.tryAcquire()).isEqualTo(i);
		}
		// the 31st finds every permit taken: the limit doubles
		assertThat(started.tryAcquire()).isEqualTo(31);
		assertThat(started.limit()).isEqualTo(60);
	}

	@Test
	void growsWithoutACollectionOncePerQuietInterval() {
		assertThat(acquire(8)).isEqualTo(8);
		this.now.addAndGet(INTERVAL);
		assertThat(acquire(10)).isZero();
		this.now.addAndGet(AdaptiveLimit.QUIET_INTERVAL.toNanos());
		assertThat(acquire(10)).isEqualTo(8);
		assertThat(this.limit.limit()).isEqualTo(16);
	}

	@Test
	void growsNoFurtherThanTheMaximum() {
		for (int i = 0; i < 10; i++) {
			acquire(1000);
			this.now.addAndGet(INTERVAL);
			this.limit.onHeapUsedAfterGc(0.1);
		}
		assertThat(this.limit.limit()).isEqualTo(100);
		assertThat(this.limit.inFlight()).isEqualTo(100);
	}

	@Test
	void growsLessAsTheHeapFills() {
		this.limit.onHeapUsedAfterGc(0.5);
		acquire(5);
		// by the room the last collection showed: 0.8 / 0.5
		assertThat(this.limit.limit()).isEqualTo(6);
		this.now.addAndGet(INTERVAL);
		// at most a doubling
		this.limit.onHeapUsedAfterGc(0.2);
		acquire(7);
		assertThat(this.limit.limit()).isEqualTo(12);
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
	void decreasesAgainOnlyOnceTheTasksInFlightHadTheTimeToEnd() {
		growTo(64);
		acquire(64);
		this.limit.onHeapUsedAfterGc(0.85);
		assertThat(this.limit.limit()).isEqualTo(48);
		// the same pressure right after, with fewer tasks in flight: the decrease has not had
		// the time to show
		release(16);
		this.limit.onHeapUsedAfterGc(0.9);
		assertThat(this.limit.limit()).isEqualTo(48);
		// a run time later (10 ms at least) it is news
		this.now.addAndGet(TimeUnit.MILLISECONDS.toNanos(10));
		this.limit.onHeapUsedAfterGc(0.9);
		assertThat(this.limit.limit()).isEqualTo(36);
		assertThat(this.limit.heapDecreases()).isEqualTo(2);
	}

	@Test
	void asksForAFullCollectionWhenThePressureReportedIsStaleAndTasksWait() throws Exception {
		AtomicInteger collections = new AtomicInteger();
		AdaptiveLimit limit = new AdaptiveLimit(new AdaptiveAdmission(4, 100, 0.8), this.now::get, false,
				collections::incrementAndGet, () -> -1);
		for (int i = 0; i < 4; i++) {
			limit.tryAcquire();
		}
		limit.onHeapUsedAfterGc(0.9);
		// a task waits, but the report is fresh
		assertThat(limit.tryAcquire()).isZero();
		// no collection for a second: the report may be the old generation's garbage
		this.now.addAndGet(AdaptiveLimit.QUIET_INTERVAL.toNanos());
		assertThat(limit.tryAcquire()).isZero();
		Awaitility.await().untilAtomic(collections, Matchers.equalTo(1));
		// not again within the check interval
		assertThat(limit.tryAcquire()).isZero();
		Thread.sleep(50);
		assertThat(collections).hasValue(1);
		// the collection it asked for found room: tasks get in again
		limit.onHeapUsedAfterGc(0.3);
		assertThat(limit.tryAcquire()).isEqualTo(5);
	}

	@Test
	void waitsForTheTasksLetInToRunBeforeItGrows() {
		AtomicLong unscheduled = new AtomicLong(3);
		AdaptiveLimit limit = new AdaptiveLimit(new AdaptiveAdmission(8, 100, 0.8), this.now::get, false, () -> {
		}, unscheduled::get);
		for (int i = 0; i < 8; i++) {
			limit.tryAcquire();
		}
		// three of the eight have not had a carrier yet: more than a quarter
		assertThat(limit.tryAcquire()).isZero();
		assertThat(limit.limit()).isEqualTo(8);
		unscheduled.set(2);
		assertThat(limit.tryAcquire()).isEqualTo(9);
		assertThat(limit.limit()).isEqualTo(16);
	}

	@Test
	void neverFallsBelowTheMinimum() {
		acquire(4);
		this.limit.onHeapUsedAfterGc(0.99);
		assertThat(this.limit.limit()).isEqualTo(4);
		assertThat(this.limit.heapDecreases()).isZero();
	}

	@Test
	void knowsNothingOfTheHeapBeforeTheFirstCollection() {
		assertThat(this.limit.heapUsedAfterGc()).isNull();
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
			this.limit.release(this.now.get());
		}
	}

}
