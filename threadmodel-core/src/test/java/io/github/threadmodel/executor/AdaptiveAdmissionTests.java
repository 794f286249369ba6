package io.github.threadmodel.executor;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@link ThreadModelExecutor} on virtual threads with an adaptive limit: tasks beyond it
 * wait in arrival order without a thread, heap pressure shrinks it, the limit outlives
 * switches. The heap's state is given by hand.
 */
class AdaptiveAdmissionTests {

	private final CountDownLatch release = new CountDownLatch(1);

	private final List<Thread> ranOn = new CopyOnWriteArrayList<>();

	private final AtomicReference<AdaptiveLimit> limit = new AtomicReference<>();

	private ThreadModelExecutor executor;

	@AfterEach
	void releaseAndClose() {
		this.release.countDown();
		if (this.executor != null) {
			this.executor.close();
		}
	}

	@Test
	void tasksBeyondTheLimitWaitInArrivalOrderWithoutAThread() throws Exception {
		this.executor = executor(adaptive(1, 1), null);
		submitBlocking(1);
		awaitStats((stats) -> stats.running() == 1);
		List<Integer> startOrder = new CopyOnWriteArrayList<>();
		CountDownLatch done = new CountDownLatch(5);
		for (int i = 0; i < 5; i++) {
			int index = i;
			this.executor.execute(() -> {
				startOrder.add(index);
				this.ranOn.add(Thread.currentThread());
				done.countDown();
			});
		}
		assertThat(this.executor.stats().queued()).isEqualTo(5);
		assertThat(this.executor.admission()).satisfies((admission) -> {
			assertThat(admission.mode()).isEqualTo("adaptive");
			assertThat(admission.algorithm()).isEqualTo("heap");
			assertThat(admission.limit()).isEqualTo(1);
			assertThat(admission.inFlight()).isEqualTo(1);
		});
		this.release.countDown();
		assertThat(done.await(5, TimeUnit.SECONDS)).isTrue();
		assertThat(startOrder).containsExactly(0, 1, 2, 3, 4);
		// the factory numbers threads as it makes them: none was made for a task while it waited
		assertThat(this.ranOn).extracting(Thread::getName)
			.containsExactly("test-virtual-2", "test-virtual-3", "test-virtual-4", "test-virtual-5",
					"test-virtual-6");
	}

	@Test
	void aBurstOpensTheLimitWithoutWaitingForTasksToEnd() throws Exception {
		this.executor = executor(adaptive(4, 1000), null);
		submitBlocking(100);
		// 4, 8, 16, 32, 64, 128: a doubling per collection with room, while every task still runs
		collectUntil((stats) -> stats.running() == 100 && stats.queued() == 0);
		assertThat(this.executor.stats().completed()).isZero();
		assertThat(this.executor.admission().limit()).isEqualTo(128);
	}

	@Test
	void heapPressureHoldsBackNewTasksUntilTheHeapHasRoomAgain() throws Exception {
		this.executor = executor(adaptive(4, 1000), null);
		submitBlocking(32);
		collectUntil((stats) -> stats.running() == 32);
		this.limit.get().onHeapUsedAfterGc(0.9);
		assertThat(this.executor.admission().limit()).isEqualTo(24);
		submitBlocking(10);
		Thread.sleep(3 * AdaptiveLimit.GROWTH_INTERVAL.toMillis());
		assertThat(this.executor.stats()).satisfies((stats) -> {
			assertThat(stats.running()).isEqualTo(32);
			assertThat(stats.queued()).isEqualTo(10);
		});
		assertThat(this.executor.admission().heapDecreases()).isEqualTo(1);
		// room again: collections let the waiting tasks in, with no other event
		collectUntil((stats) -> stats.running() == 42 && stats.queued() == 0);
	}

	@Test
	void waitingTasksTimeOutAsUnderAFixedLimit() throws Exception {
		this.executor = executor(adaptive(1, 1), new OverloadProtection(Duration.ofMillis(50)));
		submitBlocking(1);
		awaitStats((stats) -> stats.running() == 1);
		AtomicReference<Refusal> refusal = new AtomicReference<>();
		CountDownLatch ran = new CountDownLatch(1);
		this.executor.execute(() -> {
			refusal.set(Refusal.current());
			ran.countDown();
		});
		assertThat(ran.await(5, TimeUnit.SECONDS)).isTrue();
		assertThat(refusal).hasValue(Refusal.QUEUE_TIMEOUT);
		assertThat(this.executor.stats().timedOut()).isEqualTo(1);
	}

	@Test
	void theLimitOutlivesSwitchesAndWaitingTasksMoveOver() throws Exception {
		this.executor = executor(adaptive(2, 2), null);
		submitBlocking(5);
		awaitStats((stats) -> stats.running() == 2 && stats.queued() == 3);
		AdaptiveLimit before = this.limit.get();
		this.executor.switchTo(this.executor.getSettings().with(ThreadModel.PLATFORM, null, null), "test");
		assertThat(this.executor.admission()).isNull();
		awaitStats((stats) -> stats.running() == 5 && stats.queued() == 0);
		this.executor.switchTo(this.executor.getSettings().with(ThreadModel.VIRTUAL, null, null), "test");
		// the same limit, still counting the two tasks it admitted before the switches
		assertThat(this.limit.get()).isSameAs(before);
		assertThat(this.executor.admission().inFlight()).isEqualTo(2);
		submitBlocking(1);
		awaitStats((stats) -> stats.queued() == 1);
		this.release.countDown();
		awaitStats((stats) -> stats.completed() == 6 && stats.queued() == 0);
		assertThat(this.executor.admission().inFlight()).isZero();
	}

	@Test
	void aFixedLimitTakesThePlaceOfTheAdaptiveOne() {
		this.executor = executor(adaptive(2, 10), null);
		this.executor.switchTo(this.executor.getSettings().with(ThreadModel.VIRTUAL, null, 7), "test");
		assertThat(this.executor.admission()).satisfies((admission) -> {
			assertThat(admission.mode()).isEqualTo("fixed");
			assertThat(admission.limit()).isEqualTo(7);
			assertThat(admission.algorithm()).isNull();
		});
		assertThat(this.executor.stats().maxConcurrency()).isEqualTo(7);
	}

	private ThreadModelExecutor executor(AdaptiveAdmission adaptive, OverloadProtection overload) {
		return new ThreadModelExecutor("test-", virtualAdaptive(adaptive), overload, (settings) -> {
			AdaptiveLimit created = new AdaptiveLimit(settings, System::nanoTime, false);
			this.limit.set(created);
			return created;
		});
	}

	private static AdaptiveAdmission adaptive(int min, int max) {
		return new AdaptiveAdmission(min, max, 0.8);
	}

	private static ExecutorSettings virtualAdaptive(AdaptiveAdmission adaptive) {
		return new ExecutorSettings(ThreadModel.VIRTUAL,
				new ExecutorSettings.PlatformPool(8, 0, null, Duration.ofSeconds(60)), null, adaptive);
	}

	private void submitBlocking(int count) {
		for (int i = 0; i < count; i++) {
			this.executor.execute(() -> {
				try {
					this.release.await();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			});
		}
	}

	/** Reports a collection that left the heap 10 % full at every look until the condition holds. */
	private void collectUntil(Predicate<ExecutorStats> condition) throws InterruptedException {
		awaitStats((stats) -> {
			if (condition.test(stats)) {
				return true;
			}
			this.limit.get().onHeapUsedAfterGc(0.1);
			return false;
		});
	}

	private void awaitStats(Predicate<ExecutorStats> condition) throws InterruptedException {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (!condition.test(this.executor.stats())) {
			assertThat(System.nanoTime()).as("stats never matched: %s", this.executor.stats()).isLessThan(deadline);
			Thread.sleep(5);
		}
	}

}
