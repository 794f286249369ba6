package io.github.threadmodel.executor;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import io.github.threadmodel.executor.ExecutorSettings.AdaptiveAdmission;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rules of {@link HeapLimit} on their own: the clock, the tasks in flight and the
 * heap's state are given by hand.
 */
class HeapLimitTests {

	private static final long INTERVAL = HeapLimit.GROWTH_INTERVAL.toNanos();

	/** The JVM does not say how many virtual threads wait for a carrier. */
	private static final LongSupplier UNKNOWN = () -> -1;

	private final AtomicLong now = new AtomicLong(1_000_000_000L);

	private final HeapLimit limit = new HeapLimit(new AdaptiveAdmission(4, 100, 0.8), this.now::get, 4);

	/** What the JVM has allocated since it started, as the test says. */
	private final AtomicLong allocated = new AtomicLong(5_000_000_000L);

	/** The heap in use now, as the test says. */
	private final AtomicLong used = new AtomicLong(20_000_000);

	@Test
	void startsWhereTheHeapsRoomHoldsEveryTaskWithinTheBounds() {
		AdaptiveAdmission settings = new AdaptiveAdmission(20, 10_000, 0.8);
		long mb = 1024 * 1024;
		// 512 MB, 40 MB in use: 0.5 * 512 - 40 - 64 (the waiting connections' share) = 152 MB of
		// room (half the heap, below the threshold), 1 MB a task
		assertThat(HeapLimit.startingLimit(settings, 512 * mb, 40 * mb)).isEqualTo(152);
		// 256 MB: 128 - 40 - 64
		assertThat(HeapLimit.startingLimit(settings, 256 * mb, 40 * mb)).isEqualTo(24);
		// a threshold below half the heap: up to the threshold, 0.4 * 512 - 40 - 64
		assertThat(HeapLimit.startingLimit(new AdaptiveAdmission(20, 10_000, 0.4), 512 * mb, 40 * mb)).isEqualTo(100);
		// a heap already past the threshold, or too small: the minimum (128 MB: 64 - 40 - 64)
		assertThat(HeapLimit.startingLimit(settings, 256 * mb, 230 * mb)).isEqualTo(20);
		assertThat(HeapLimit.startingLimit(settings, 128 * mb, 40 * mb)).isEqualTo(20);
		assertThat(HeapLimit.startingLimit(settings, 32 * mb, 10 * mb)).isEqualTo(20);
		// 6 GB: 3072 - 100 - 64; 32 GB: the maximum; and a JVM without a heap limit says Long.MAX_VALUE
		assertThat(HeapLimit.startingLimit(settings, 6 * 1024 * mb, 100 * mb)).isEqualTo(2908);
		assertThat(HeapLimit.startingLimit(settings, 32 * 1024 * mb, 100 * mb)).isEqualTo(10_000);
		assertThat(HeapLimit.startingLimit(settings, Long.MAX_VALUE, 100 * mb)).isEqualTo(10_000);
	}

	@Test
	void doesNotGrowBeforeATaskHasEnded() {
		assertThat(this.limit.grow(UNKNOWN)).isFalse();
		this.now.addAndGet(HeapLimit.QUIET_INTERVAL.toNanos());
		this.limit.onCollection(0.1, 4);
		assertThat(this.limit.grow(UNKNOWN)).isFalse();
		assertThat(this.limit.runTime()).isEqualTo(-1);
		// a task of 50 ms ended: a collection 100 ms after tasks began to wait saw them through
		this.limit.ended(INTERVAL / 2);
		assertThat(this.limit.grow(UNKNOWN)).isFalse();
		this.now.addAndGet(INTERVAL);
		this.limit.onCollection(0.1, 4);
		assertThat(this.limit.grow(UNKNOWN)).isTrue();
		assertThat(this.limit.limit()).isEqualTo(8);
	}

	@Test
	void aCallerNeverWaitsWhileAnotherDecidesWhetherToGrow() throws Exception {
		// as above: tasks wait, one ended, and a collection came after it
		assertThat(this.limit.grow(UNKNOWN)).isFalse();
		this.limit.ended(INTERVAL / 2);
		this.now.addAndGet(INTERVAL);
		this.limit.onCollection(0.1, 4);
		CountDownLatch deciding = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		// the first caller holds the decision (as a virtual thread waiting for a carrier would)
		CompletableFuture<Boolean> first = CompletableFuture.supplyAsync(() -> this.limit.grow(() -> {
			deciding.countDown();
			awaitQuietly(release);
			return -1;
		}), HeapLimitTests::newThread);
		assertThat(deciding.await(10, TimeUnit.SECONDS)).isTrue();
		// a poller or selector thread asking meanwhile leaves it to the first, at once
		assertThat(CompletableFuture.supplyAsync(() -> this.limit.grow(UNKNOWN), HeapLimitTests::newThread))
			.succeedsWithin(Duration.ofSeconds(5))
			.isEqualTo(false);
		release.countDown();
		assertThat(first).succeedsWithin(Duration.ofSeconds(10)).isEqualTo(true);
		assertThat(this.limit.limit()).isEqualTo(8);
	}

	@Test
	void growsOnlyOnceACollectionSawTheTasksLetInRunAsLongAsTasksRun() {
		// tasks of 2 s that allocate what they keep as they run: the collections of their
		// first second see little of it
		this.limit.ended(TimeUnit.SECONDS.toNanos(2));
		tasksWaitFor(TimeUnit.SECONDS.toNanos(2), 0.2);
		this.now.addAndGet(2 * INTERVAL);
		this.limit.onCollection(0.2, 4);
		assertThat(this.limit.grow(UNKNOWN)).isTrue();
		assertThat(this.limit.limit()).isEqualTo(8);
		tasksWaitFor(TimeUnit.SECONDS.toNanos(2), 0.2);
		assertThat(this.limit.limit()).isEqualTo(8);
		// two seconds after the growth, a collection sees them at their full cost
		this.now.addAndGet(2 * INTERVAL);
		this.limit.onCollection(0.7, 8);
		assertThat(this.limit.grow(UNKNOWN)).isTrue();
		// 0.8 / 0.7 of 8 is 9.1
		assertThat(this.limit.limit()).isEqualTo(9);
	}

	@Test
	void aBurstAfterAQuietTimeWaitsForItsTasksToShowTheirCostToo() {
		this.limit.ended(TimeUnit.SECONDS.toNanos(2));
		// the limit last changed long ago; a burst fills it and tasks wait
		this.now.addAndGet(TimeUnit.MINUTES.toNanos(1));
		tasksWaitFor(TimeUnit.SECONDS.toNanos(2), 0.2);
		assertThat(this.limit.limit()).isEqualTo(4);
		this.now.addAndGet(2 * INTERVAL);
		this.limit.onCollection(0.3, 4);
		assertThat(this.limit.grow(UNKNOWN)).isTrue();
		assertThat(this.limit.limit()).isEqualTo(8);
	}

	@Test
	void growsWithoutACollectionOnceTheHeapWasQuietAfterTheTasksRanThrough() {
		this.limit.ended(INTERVAL);
		assertThat(this.limit.grow(UNKNOWN)).isFalse();
		long quiet = INTERVAL + HeapLimit.QUIET_INTERVAL.toNanos();
		for (long waited = INTERVAL; waited < quiet; waited += INTERVAL) {
			this.now.addAndGet(INTERVAL);
			assertThat(this.limit.grow(UNKNOWN)).isFalse();
		}
		this.now.addAndGet(INTERVAL);
		assertThat(this.limit.grow(UNKNOWN)).isTrue();
		assertThat(this.limit.limit()).isEqualTo(8);
	}

	@Test
	void theRunTimeFollowsTheLongerTasks() {
		long second = TimeUnit.SECONDS.toNanos(1);
		this.limit.ended(second);
		this.limit.ended(0);
		// a quick task brings it down by a sixteenth of the gap only
		assertThat(this.limit.runTime()).isEqualTo(second - second / 16);
		this.limit.ended(2 * second);
		assertThat(this.limit.runTime()).isEqualTo(2 * second);
	}

	@Test
	void growsLessAsTheHeapFills() {
		this.limit.ended(0);
		this.limit.grow(UNKNOWN);
		this.now.addAndGet(INTERVAL);
		this.limit.onCollection(0.5, 4);
		assertThat(this.limit.grow(UNKNOWN)).isTrue();
		// by the room the last collection showed: 0.8 / 0.5
		assertThat(this.limit.limit()).isEqualTo(6);
		this.now.addAndGet(INTERVAL);
		// at most a doubling
		this.limit.onCollection(0.2, 6);
		assertThat(this.limit.grow(UNKNOWN)).isTrue();
		assertThat(this.limit.limit()).isEqualTo(12);
	}

	@Test
	void decreasesAgainOnlyOnceTheTasksInFlightHadTheTimeToEnd() {
		HeapLimit limit = new HeapLimit(new AdaptiveAdmission(4, 100, 0.8), this.now::get, 64);
		assertThat(limit.onCollection(0.85, 64)).isEqualTo(new HeapLimit.Pressure(0.85, 64, 64, 48, true));
		assertThat(limit.limit()).isEqualTo(48);
		// the same pressure right after, with fewer tasks in flight (16 ended at once): the
		// decrease has not had the time to show
		for (int i = 0; i < 16; i++) {
			limit.ended(0);
		}
		assertThat(limit.onCollection(0.9, 48)).isEqualTo(new HeapLimit.Pressure(0.9, 48, 48, 48, false));
		assertThat(limit.limit()).isEqualTo(48);
		// a run time later (10 ms at least) it is news
		this.now.addAndGet(TimeUnit.MILLISECONDS.toNanos(10));
		limit.onCollection(0.9, 48);
		assertThat(limit.limit()).isEqualTo(36);
		assertThat(limit.heapDecreases()).isEqualTo(2);
	}

	@Test
	void neverFallsBelowTheMinimum() {
		assertThat(this.limit.onCollection(0.99, 4)).isEqualTo(new HeapLimit.Pressure(0.99, 4, 4, 4, true));
		assertThat(this.limit.limit()).isEqualTo(4);
		assertThat(this.limit.heapDecreases()).isZero();
	}

	@Test
	void knowsNothingOfTheHeapBeforeTheFirstCollection() {
		assertThat(this.limit.heapUsedAfterGc()).isNull();
		assertThat(this.limit.onCollection(0.3, 0)).isNull();
		assertThat(this.limit.heapUsedAfterGc()).isEqualTo(0.3);
	}

	@Test
	void aLightBurstOpensAfterOneRunTimeToWhatTheRoomHoldsAtWhatItsTasksAllocated() {
		HeapLimit limit = burstAfterACollection();
		assertThat(limit.grow(UNKNOWN)).isFalse();
		this.now.addAndGet(TimeUnit.SECONDS.toNanos(2));
		endTasks(limit, 100, TimeUnit.SECONDS.toNanos(2), 100 * 20_000, 22_000_000);
		// no collection since: the doubling would wait; 20 KB a task, and 0.8 * 100 MB - 22 MB
		// in use now: three quarters of 58 MB hold 2175 more
		assertThat(limit.grow(UNKNOWN)).isTrue();
		assertThat(limit.limit()).isEqualTo(2275);
	}

	@Test
	void heavyTasksGrowItNoFurtherThanTheRoomHoldsAtWhatTheyAllocated() {
		HeapLimit limit = burstAfterACollection();
		waitWhileTasksRun(limit, TimeUnit.SECONDS.toNanos(2));
		// 100 tasks that allocated 400 KB each; 60 MB in use now: 0.75 * 20 MB / 400 KB
		endTasks(limit, 100, TimeUnit.SECONDS.toNanos(2), 100 * 400_000, 60_000_000);
		assertThat(limit.grow(UNKNOWN)).isTrue();
		assertThat(limit.limit()).isEqualTo(137);
		// the tasks let in then run through and a collection after them shows 0.5 with
		// nothing allocated since: by allocation 0.75 * 30 MB / 400 KB more (193), by the
		// doubling's rule 0.8 / 0.5 of 137 (219), which applies
		waitWhileTasksRun(limit, TimeUnit.SECONDS.toNanos(2));
		this.now.addAndGet(2 * INTERVAL);
		this.allocated.addAndGet(137 * 400_000);
		this.used.set(75_000_000);
		limit.onCollection(0.5, 137);
		endTasks(limit, 137, TimeUnit.SECONDS.toNanos(2));
		assertThat(limit.grow(UNKNOWN)).isTrue();
		assertThat(limit.limit()).isEqualTo(219);
	}

	@Test
	void tasksOfMixedRunTimesCostAsMuchMoreAsTheLongestRunsLongerThanTheAverage() {
		HeapLimit limit = burstAfterACollection();
		assertThat(limit.grow(UNKNOWN)).isFalse();
		this.now.addAndGet(TimeUnit.SECONDS.toNanos(2));
		// 200 tasks, 10 MB in all: 50 KB each, but half ran 2 s and half no time at all (the
		// average 1 s): in flight they cost 100 KB each; 0.75 * 60 MB / 100 KB
		endTasks(limit, 100, TimeUnit.SECONDS.toNanos(2), 10_000_000, 20_000_000);
		endTasks(limit, 100, 0);
		assertThat(limit.grow(UNKNOWN)).isTrue();
		assertThat(limit.limit()).isEqualTo(550);
	}

	@Test
	void growsByAllocationOnlyOnceTheTasksLetInRanThroughWithinTheWindow() {
		HeapLimit limit = burstAfterACollection();
		assertThat(limit.grow(UNKNOWN)).isFalse();
		// a second in: tasks of 2 s have not run through, quick ones beside them did
		this.now.addAndGet(TimeUnit.SECONDS.toNanos(1));
		this.allocated.addAndGet(1_000_000);
		this.used.set(21_000_000);
		limit.ended(TimeUnit.SECONDS.toNanos(2));
		endTasks(limit, 50, 0);
		assertThat(limit.grow(UNKNOWN)).isFalse();
		assertThat(limit.limit()).isEqualTo(100);
	}

	@Test
	void tasksThatRunLongerThanItWaitsForKeepToTheDoubling() {
		HeapLimit limit = burstAfterACollection();
		waitWhileTasksRun(limit, TimeUnit.SECONDS.toNanos(10));
		endTasks(limit, 100, TimeUnit.SECONDS.toNanos(10), 1_000_000, 21_000_000);
		// the growth waits 5 s at most, and then the heap was quiet for a second: a doubling
		assertThat(limit.grow(UNKNOWN)).isTrue();
		assertThat(limit.limit()).isEqualTo(200);
	}

	@Test
	void tasksThatBeganBeforeTheWindowAreNotCounted() {
		HeapLimit limit = limitReading(100);
		this.now.addAndGet(TimeUnit.SECONDS.toNanos(1));
		// the window begins at this collection; tasks that were running already end in it
		limit.onCollection(0.2, 100);
		this.now.addAndGet(TimeUnit.SECONDS.toNanos(2));
		endTasks(limit, 100, TimeUnit.SECONDS.toNanos(3));
		this.allocated.addAndGet(1_000_000);
		this.used.set(21_000_000);
		// they waited from the start: no task of the window, so no growth by allocation (and
		// the doubling waits for a collection)
		assertThat(limit.grow(UNKNOWN)).isFalse();
		assertThat(limit.limit()).isEqualTo(100);
	}

	@Test
	void whatWasAllocatedBeforeATaskStartedWithNoneInFlightIsNotTheTasks() {
		HeapLimit limit = limitReading(100);
		limit.onCollection(0.2, 0);
		// the end of the application's startup allocates 50 MB after the last collection
		this.now.addAndGet(INTERVAL);
		this.allocated.addAndGet(50_000_000);
		this.now.addAndGet(INTERVAL);
		limit.firstInFlight();
		this.now.addAndGet(INTERVAL);
		waitWhileTasksRun(limit, TimeUnit.SECONDS.toNanos(2));
		this.now.addAndGet(INTERVAL);
		endTasks(limit, 100, TimeUnit.SECONDS.toNanos(2), 100 * 20_000, 22_000_000);
		// as for a burst with nothing allocated before it: 20 KB a task
		assertThat(limit.grow(UNKNOWN)).isTrue();
		assertThat(limit.limit()).isEqualTo(2275);
	}

	@Test
	void aTaskStartingWithNoneInFlightWhileOthersWaitLeavesTheWindowAsItIs() {
		HeapLimit limit = burstAfterACollection();
		waitWhileTasksRun(limit, TimeUnit.SECONDS.toNanos(1));
		// tasks wait: a start now does not begin the window anew
		limit.firstInFlight();
		waitWhileTasksRun(limit, TimeUnit.SECONDS.toNanos(1));
		this.now.addAndGet(INTERVAL);
		endTasks(limit, 100, TimeUnit.SECONDS.toNanos(2), 100 * 20_000, 22_000_000);
		assertThat(limit.grow(UNKNOWN)).isTrue();
		assertThat(limit.limit()).isEqualTo(2275);
	}

	@Test
	void waitsForHalfTheLimitsWorthOfTasksToRunThrough() {
		HeapLimit limit = burstAfterACollection();
		waitWhileTasksRun(limit, TimeUnit.SECONDS.toNanos(2));
		this.now.addAndGet(INTERVAL);
		// 49 ended: what the others allocated so far would count as theirs
		endTasks(limit, 49, TimeUnit.SECONDS.toNanos(2), 100 * 20_000, 22_000_000);
		assertThat(limit.grow(UNKNOWN)).isFalse();
		endTasks(limit, 1, TimeUnit.SECONDS.toNanos(2));
		assertThat(limit.grow(UNKNOWN)).isTrue();
		// 40 KB a task: 0.75 * 58 MB / 40 KB
		assertThat(limit.limit()).isEqualTo(1187);
	}

	@Test
	void thisJvmsReadingsSeeWhatAThreadAllocates() {
		HeapAllocation heap = HeapAllocation.ofThisJvm();
		assertThat(heap).isNotNull();
		long before = heap.allocatedBytes().getAsLong();
		byte[][] chunks = new byte[10][];
		for (int i = 0; i < chunks.length; i++) {
			chunks[i] = new byte[1_000_000];
		}
		assertThat(heap.allocatedBytes().getAsLong() - before).isGreaterThanOrEqualTo(10_000_000);
		assertThat(heap.usedHeap().getAsLong()).isPositive().isLessThanOrEqualTo(heap.maxHeap());
		assertThat(chunks[9]).hasSize(1_000_000);
	}

	/**
	 * A limit of 100 after a collection that left 0.2 of the heap in use while nothing
	 * waited (the window begins there), then a growth interval later a burst: 100 tasks of
	 * 2 s let in, the others wait.
	 */
	private HeapLimit burstAfterACollection() {
		HeapLimit limit = limitReading(100);
		limit.onCollection(0.2, 0);
		this.now.addAndGet(INTERVAL);
		return limit;
	}

	/** A limit of 4 to 10 000 at a threshold of 0.8 on a 100 MB heap whose readings the test gives. */
	private HeapLimit limitReading(int start) {
		return new HeapLimit(new AdaptiveAdmission(4, 10_000, 0.8), this.now::get, start,
				new HeapAllocation(this.allocated::get, this.used::get, 100_000_000));
	}

	/** Tasks wait for {@code nanos}, one growth interval after another: the limit does not grow. */
	private void waitWhileTasksRun(HeapLimit limit, long nanos) {
		assertThat(limit.grow(UNKNOWN)).isFalse();
		for (long waited = INTERVAL; waited < nanos; waited += INTERVAL) {
			this.now.addAndGet(INTERVAL);
			assertThat(limit.grow(UNKNOWN)).isFalse();
		}
	}

	/**
	 * {@code count} tasks that ran {@code runNanos} each end, once every thread together
	 * allocated {@code allocated} bytes more, with {@code used} bytes of the heap in use now.
	 */
	private void endTasks(HeapLimit limit, int count, long runNanos, long allocated, long used) {
		this.allocated.addAndGet(allocated);
		this.used.set(used);
		endTasks(limit, count, runNanos);
	}

	private static void endTasks(HeapLimit limit, int count, long runNanos) {
		for (int i = 0; i < count; i++) {
			limit.ended(runNanos);
		}
	}

	private static void newThread(Runnable task) {
		Thread.ofPlatform().daemon().start(task);
	}

	private static void awaitQuietly(CountDownLatch latch) {
		try {
			latch.await(30, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * Tasks wait for {@code nanos}, one growth interval after another, with a collection
	 * leaving {@code used} at each: the limit does not grow.
	 */
	private void tasksWaitFor(long nanos, double used) {
		assertThat(this.limit.grow(UNKNOWN)).isFalse();
		for (long waited = INTERVAL; waited < nanos; waited += INTERVAL) {
			this.now.addAndGet(INTERVAL);
			this.limit.onCollection(used, this.limit.limit());
			assertThat(this.limit.grow(UNKNOWN)).isFalse();
		}
	}

}
