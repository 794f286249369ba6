package io.github.threadmodel.executor;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;

import io.github.threadmodel.testapp.ExecutorFixture;
import io.github.threadmodel.testapp.LiveThreads;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static io.github.threadmodel.testapp.ExecutorFixture.platform;
import static io.github.threadmodel.testapp.ExecutorFixture.virtual;
import static io.github.threadmodel.testapp.ExecutorFixture.waiting;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class ThreadModelExecutorTests {

	@RegisterExtension
	final ExecutorFixture fixture = new ExecutorFixture();

	private final List<Thread> ranOn = this.fixture.ranOn();

	private ThreadModelExecutor executor;

	@Test
	void platformPoolGrowsToMaxThreadsBeforeQueueing() throws Exception {
		this.executor = this.fixture.use(new ThreadModelExecutor("test-", platform(4, 1, null)));
		this.fixture.submitBlocking(6);
		this.fixture.awaitStats((stats) -> stats.running() == 4 && stats.queued() == 2);
		ExecutorStats stats = this.executor.stats();
		assertThat(stats.poolSize()).isEqualTo(4);
		assertThat(stats.maxPoolSize()).isEqualTo(4);
		assertThat(stats.peakQueued()).isEqualTo(2);
		assertThat(this.ranOn).allSatisfy((thread) -> {
			assertThat(thread.isVirtual()).isFalse();
			assertThat(thread.getName()).startsWith("test-platform-");
		});
		this.fixture.release();
		this.fixture.awaitStats((s) -> s.completed() == 6);
		assertThat(this.executor.stats()).satisfies((s) -> {
			assertThat(s.running()).isZero();
			assertThat(s.queued()).isZero();
			assertThat(s.submitted()).isEqualTo(6);
			assertThat(s.started()).isEqualTo(6);
		});
	}

	@Test
	void onlyTasksThatWaitBehindTheLimitAreQueuedAndTheirWaitIsMeasured() throws Exception {
		this.executor = this.fixture.use(new ThreadModelExecutor("test-", platform(2, 0, null)));
		this.fixture.submitBlocking(5);
		this.fixture.awaitStats((stats) -> stats.running() == 2 && stats.queued() == 3);
		waiting().during(Duration.ofMillis(50)).until(() -> this.executor.stats().queued() == 3);
		this.fixture.release();
		this.fixture.awaitStats((stats) -> stats.completed() == 5);
		ExecutorStats stats = this.executor.stats();
		assertThat(stats.queued()).isZero();
		assertThat(stats.peakQueued()).isEqualTo(3);
		assertThat(stats.queueWait().count()).isEqualTo(3);
		assertThat(stats.queueWait().max()).isGreaterThanOrEqualTo(Duration.ofMillis(50));
		assertThat(stats.queueWait().average()).isPositive().isLessThanOrEqualTo(stats.queueWait().max());
		assertThat(stats.carrierWait().count()).as("platform threads have no carrier").isZero();
	}

	@Test
	void tasksHandedToIdlePlatformThreadsAreNeverQueued() throws Exception {
		this.executor = this.fixture.use(new ThreadModelExecutor("test-", platform(4, 4, null)));
		for (int i = 0; i < 20; i++) {
			// through the pool's queue to one of its idle threads
			this.executor.execute(() -> {
			});
			long completed = i + 1;
			this.fixture.awaitStats((stats) -> stats.completed() == completed);
		}
		assertThat(this.executor.stats()).satisfies((stats) -> {
			assertThat(stats.peakQueued()).isZero();
			assertThat(stats.queueWait().count()).isZero();
		});
	}

	@Test
	void virtualThreadsWaitingForACarrierAreNotQueued() throws Exception {
		this.executor = this.fixture.use(new ThreadModelExecutor("test-", virtual(null)));
		// Virtual threads are not time-sliced: spinning tasks hold every carrier thread.
		int carriers = Integer.getInteger("jdk.virtualThreadScheduler.parallelism",
				Runtime.getRuntime().availableProcessors());
		AtomicBoolean spin = new AtomicBoolean(true);
		for (int i = 0; i < carriers; i++) {
			this.executor.execute(() -> {
				while (spin.get()) {
					Thread.onSpinWait();
				}
			});
		}
		this.fixture.awaitStats((stats) -> stats.running() == carriers);
		CountDownLatch ran = new CountDownLatch(5);
		for (int i = 0; i < 5; i++) {
			this.executor.execute(ran::countDown);
		}
		// tasks that found every carrier busy wait for one, and are not queued
		waiting().during(Duration.ofMillis(200))
			.until(() -> ran.getCount() == 5 && this.executor.stats().queued() == 0);
		spin.set(false);
		assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
		this.fixture.awaitStats((stats) -> stats.completed() == carriers + 5);
		ExecutorStats stats = this.executor.stats();
		assertThat(stats.peakQueued()).isZero();
		assertThat(stats.queueWait().count()).isZero();
		assertThat(stats.carrierWait().count()).isEqualTo(carriers + 5);
		assertThat(stats.carrierWait().max()).isGreaterThanOrEqualTo(Duration.ofMillis(200));
	}

	@Test
	void virtualConcurrencyLimitQueuesOnlyTasksWithoutAPermit() throws Exception {
		this.executor = this.fixture.use(new ThreadModelExecutor("test-", virtual(2)));
		this.fixture.submitBlocking(6);
		this.fixture.awaitStats((stats) -> stats.running() == 2 && stats.queued() == 4);
		this.fixture.release();
		this.fixture.awaitStats((stats) -> stats.completed() == 6);
		ExecutorStats stats = this.executor.stats();
		assertThat(stats.queueWait().count()).isEqualTo(4);
		assertThat(stats.carrierWait().count()).as("every task got a virtual thread of its own").isEqualTo(6);
	}

	@Test
	void idlePlatformThreadsTakeWorkBeforeThePoolGrows() throws Exception {
		this.executor = this.fixture.use(new ThreadModelExecutor("test-", platform(8, 3, null)));
		for (int i = 0; i < 20; i++) {
			this.executor.execute(() -> {
			});
			// wait for the executor's own count, not a latch inside the task: a thread that
			// opened the latch is not idle until the task has returned
			long completed = i + 1;
			this.fixture.awaitStats((stats) -> stats.completed() == completed);
		}
		assertThat(this.executor.stats().poolSize()).isEqualTo(3);
	}

	@Test
	void platformPoolRejectsWhenThreadsAndQueueAreFull() throws Exception {
		this.executor = this.fixture.use(new ThreadModelExecutor("test-", platform(2, 0, 1)));
		this.fixture.submitBlocking(3);
		this.fixture.awaitStats((stats) -> stats.running() == 2 && stats.queued() == 1);
		assertThatExceptionOfType(RejectedExecutionException.class).isThrownBy(() -> this.executor.execute(() -> {
		})).withMessageContaining("queue is full");
		assertThat(this.executor.stats().rejected()).isEqualTo(1);
		assertThat(this.executor.stats().queued()).isEqualTo(1);
	}

	@Test
	void platformPoolWithoutQueueRejectsOnceAllThreadsAreBusy() throws Exception {
		this.executor = this.fixture.use(new ThreadModelExecutor("test-", platform(2, 0, 0)));
		this.fixture.submitBlocking(2);
		this.fixture.awaitStats((stats) -> stats.running() == 2);
		assertThatExceptionOfType(RejectedExecutionException.class).isThrownBy(() -> this.executor.execute(() -> {
		}));
	}

	@Test
	void platformPoolWithoutQueueHandsTasksToItsIdleThreads() throws Exception {
		this.executor = this.fixture.use(new ThreadModelExecutor("test-", platform(2, 2, 0)));
		for (int i = 0; i < 10; i++) {
			this.executor.execute(() -> {
			});
			long completed = i + 1;
			this.fixture.awaitStats((stats) -> stats.completed() == completed);
		}
		assertThat(this.executor.stats().rejected()).isZero();
		assertThat(this.executor.stats().poolSize()).isEqualTo(2);
	}

	@Test
	void virtualThreadsRunEveryTaskAtOnceWithoutLimit() throws Exception {
		this.executor = this.fixture.use(new ThreadModelExecutor("test-", virtual(null)));
		this.fixture.submitBlocking(50);
		// a task counts as running just before it runs: wait until each one has said where it runs
		this.fixture.awaitStats((stats) -> stats.running() == 50 && this.ranOn.size() == 50);
		assertThat(this.executor.stats().queued()).isZero();
		assertThat(this.executor.stats().poolSize()).isNull();
		assertThat(this.ranOn).hasSize(50).allSatisfy((thread) -> {
			assertThat(thread.isVirtual()).isTrue();
			assertThat(thread.getName()).startsWith("test-virtual-");
		});
	}

	@Test
	void virtualConcurrencyLimitQueuesTheRest() throws Exception {
		this.executor = this.fixture.use(new ThreadModelExecutor("test-", virtual(2)));
		this.fixture.submitBlocking(6);
		this.fixture.awaitStats((stats) -> stats.running() == 2 && stats.queued() == 4);
		assertThat(this.executor.stats().maxConcurrency()).isEqualTo(2);
		this.fixture.release();
		this.fixture.awaitStats((stats) -> stats.completed() == 6 && stats.running() == 0 && stats.queued() == 0);
		assertThat(this.executor.stats().maxWait()).isPositive();
	}

	@Test
	void waitingTasksStartInArrivalOrder() throws Exception {
		this.executor = this.fixture.use(new ThreadModelExecutor("test-", virtual(1)));
		this.fixture.submitBlocking(1);
		this.fixture.awaitStats((stats) -> stats.running() == 1);
		List<Integer> startOrder = new CopyOnWriteArrayList<>();
		CountDownLatch done = new CountDownLatch(5);
		for (int i = 0; i < 5; i++) {
			int index = i;
			this.executor.execute(() -> {
				startOrder.add(index);
				done.countDown();
			});
		}
		assertThat(this.executor.stats().queued()).isEqualTo(5);
		this.fixture.release();
		assertThat(done.await(5, TimeUnit.SECONDS)).isTrue();
		assertThat(startOrder).containsExactly(0, 1, 2, 3, 4);
	}

	@Test
	void virtualConcurrencyLimitHoldsUnderConcurrentSubmission() throws Exception {
		this.executor = this.fixture.use(new ThreadModelExecutor("test-", virtual(3)));
		AtomicInteger running = new AtomicInteger();
		AtomicInteger highest = new AtomicInteger();
		CountDownLatch done = new CountDownLatch(400);
		try (var submitters = Executors.newFixedThreadPool(4)) {
			for (int i = 0; i < 400; i++) {
				submitters.execute(() -> this.executor.execute(() -> {
					highest.accumulateAndGet(running.incrementAndGet(), Math::max);
					Thread.onSpinWait();
					running.decrementAndGet();
					done.countDown();
				}));
			}
		}
		assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
		assertThat(highest.get()).isBetween(1, 3);
		this.fixture.awaitStats((stats) -> stats.completed() == 400 && stats.queued() == 0);
	}

	@Test
	void closedExecutorRejectsNewTasks() {
		this.executor = this.fixture.use(new ThreadModelExecutor("test-", virtual(null)));
		this.executor.close();
		assertThatExceptionOfType(RejectedExecutionException.class).isThrownBy(() -> this.executor.execute(() -> {
		}));
		assertThat(this.executor.stats().rejected()).isEqualTo(1);
		assertThatIllegalStateException().isThrownBy(() -> this.executor.switchTo(platform(2, 0, null),
				SwitchSource.APPLICATION, "test"));
	}

	@Test
	void switchMovesWaitingTasksToTheNewModelAndLetsRunningOnesFinish() throws Exception {
		this.executor = this.fixture.use(new ThreadModelExecutor("switch-", platform(2, 0, null)));
		this.fixture.submitBlocking(5);
		this.fixture.awaitStats((stats) -> stats.running() == 2 && stats.queued() == 3);
		ModelSwitch change = this.executor.switchTo(virtual(null), SwitchSource.APPLICATION, "test");
		assertThat(change.from()).isEqualTo(ThreadModel.PLATFORM);
		assertThat(change.to()).isEqualTo(ThreadModel.VIRTUAL);
		assertThat(change.handedOver()).isEqualTo(3);
		this.fixture.awaitStats((stats) -> stats.running() == 5 && stats.queued() == 0 && this.ranOn.size() == 5);
		assertThat(this.ranOn).filteredOn(Thread::isVirtual).hasSize(3);
		assertThat(this.ranOn).filteredOn((thread) -> !thread.isVirtual())
			.hasSize(2)
			.allSatisfy((thread) -> assertThat(thread.getName()).startsWith("switch-platform-"));
		this.fixture.release();
		this.fixture.awaitStats((stats) -> stats.completed() == 5);
		assertThat(this.executor.getModel()).isEqualTo(ThreadModel.VIRTUAL);
		assertThat(this.executor.switchHistory()).containsExactly(change);
		LiveThreads.await("switch-platform-", 0, Duration.ofSeconds(10));
	}

	@Test
	void noTaskIsLostOrRunTwiceWhileTheModelSwitchesBackAndForth() throws Exception {
		this.executor = this.fixture.use(new ThreadModelExecutor("flip-", platform(4, 1, null)));
		int tasks = 4000;
		AtomicIntegerArray runs = new AtomicIntegerArray(tasks);
		CountDownLatch done = new CountDownLatch(tasks);
		try (var submitters = Executors.newFixedThreadPool(2)) {
			for (int i = 0; i < tasks; i++) {
				int id = i;
				submitters.execute(() -> this.executor.execute(() -> {
					runs.incrementAndGet(id);
					done.countDown();
				}));
			}
			for (int i = 0; i < 30; i++) {
				this.executor.switchTo((i % 2 == 0) ? virtual((i % 4 == 0) ? 3 : null) : platform(4, 1, null),
						SwitchSource.APPLICATION, "flip");
			}
		}
		assertThat(done.await(20, TimeUnit.SECONDS)).isTrue();
		for (int i = 0; i < tasks; i++) {
			assertThat(runs.get(i)).as("runs of task %d", i).isEqualTo(1);
		}
		this.fixture.awaitStats((stats) -> stats.completed() == tasks && stats.queued() == 0 && stats.rejected() == 0);
		assertThat(this.executor.switchHistory()).hasSize(10);
		assertThat(this.executor.getModel()).isEqualTo(ThreadModel.PLATFORM);
		// only the current pool's threads are alive: every retired pool has ended
		LiveThreads.await("flip-platform-", this.executor.stats().poolSize(), Duration.ofSeconds(10));
	}

	@Test
	void tasksTheNewThreadsRefuseStillRun() throws Exception {
		this.executor = this.fixture.use(new ThreadModelExecutor("refuse-", virtual(1)));
		this.fixture.submitBlocking(4);
		this.fixture.awaitStats((stats) -> stats.running() == 1 && stats.queued() == 3);
		this.executor.switchTo(platform(1, 0, 0), SwitchSource.APPLICATION, "test");
		this.fixture.awaitStats((stats) -> stats.running() == 4 && stats.queued() == 0);
		this.fixture.release();
		this.fixture.awaitStats((stats) -> stats.completed() == 4 && stats.rejected() == 0);
	}

}
