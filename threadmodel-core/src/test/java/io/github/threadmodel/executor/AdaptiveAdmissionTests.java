package io.github.threadmodel.executor;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import io.github.threadmodel.executor.ExecutorSettings.AdaptiveAdmission;
import io.github.threadmodel.executor.ExecutorSettings.OverloadProtection;
import io.github.threadmodel.executor.ExecutorSettings.UnlimitedAdmission;
import io.github.threadmodel.testapp.ExecutorFixture;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@link ThreadModelExecutor} on virtual threads with an adaptive limit: tasks beyond it
 * wait in arrival order without a thread, heap pressure shrinks it, the limit outlives
 * switches of the model and ends when admission stops being adaptive. The heap's state and the limit's clock are given by hand.
 */
class AdaptiveAdmissionTests {

	@RegisterExtension
	final ExecutorFixture fixture = new ExecutorFixture();

	private final AtomicReference<AdaptiveLimiter> limit = new AtomicReference<>();

	/** The limit's clock, in nanoseconds. */
	private final AtomicLong now = new AtomicLong(1_000_000_000L);

	private ThreadModelExecutor executor;

	@Test
	void tasksBeyondTheLimitWaitInArrivalOrderWithoutAThread() throws Exception {
		this.executor = executor(adaptive(1, 1), null);
		this.fixture.submitBlocking(1);
		this.fixture.awaitStats((stats) -> stats.running() == 1);
		List<Integer> startOrder = new CopyOnWriteArrayList<>();
		List<Thread> ranOn = new CopyOnWriteArrayList<>();
		CountDownLatch done = new CountDownLatch(5);
		for (int i = 0; i < 5; i++) {
			int index = i;
			this.executor.execute(() -> {
				startOrder.add(index);
				ranOn.add(Thread.currentThread());
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
		this.fixture.release();
		assertThat(done.await(5, TimeUnit.SECONDS)).isTrue();
		assertThat(startOrder).containsExactly(0, 1, 2, 3, 4);
		// the factory numbers threads as it makes them: none was made for a task while it waited
		assertThat(ranOn).extracting(Thread::getName)
			.containsExactly("test-virtual-2", "test-virtual-3", "test-virtual-4", "test-virtual-5",
					"test-virtual-6");
	}

	@Test
	void aBurstOfTasksWhoseRunTimeIsKnownOpensTheLimitWithoutWaitingForThemToEnd() throws Exception {
		this.executor = executor(adaptive(4, 1000), null);
		runQuickTask();
		this.fixture.submitBlocking(100);
		assertThat(this.executor.admission().limit()).isEqualTo(4);
		// 8, 16, 32, 64, 128: a doubling per collection with room, while every task still runs
		collect(5);
		this.fixture.awaitStats((stats) -> stats.running() == 100 && stats.queued() == 0);
		assertThat(this.executor.stats().completed()).isEqualTo(1);
		assertThat(this.executor.admission().limit()).isEqualTo(128);
	}

	@Test
	void heapPressureHoldsBackNewTasksUntilTheHeapHasRoomAgain() throws Exception {
		this.executor = executor(adaptive(4, 1000), null);
		runQuickTask();
		this.fixture.submitBlocking(32);
		collect(3);
		this.fixture.awaitStats((stats) -> stats.running() == 32);
		this.limit.get().onHeapUsedAfterGc(0.9);
		assertThat(this.executor.admission().limit()).isEqualTo(24);
		// long enough for the limit to grow without a collection, were the heap not under pressure
		this.now.addAndGet(HeapLimit.QUIET_INTERVAL.toNanos());
		this.fixture.submitBlocking(10);
		assertThat(this.executor.stats()).satisfies((stats) -> {
			assertThat(stats.running()).isEqualTo(32);
			assertThat(stats.queued()).isEqualTo(10);
		});
		assertThat(this.executor.admission().limit()).isEqualTo(24);
		assertThat(this.executor.admission().heapDecreases()).isEqualTo(1);
		// room again: a collection after the tasks let in ran through lets the waiting tasks in,
		// with no other event
		this.now.addAndGet(HeapLimit.GROWTH_INTERVAL.toNanos());
		this.limit.get().onHeapUsedAfterGc(0.1);
		this.fixture.awaitStats((stats) -> stats.running() == 42 && stats.queued() == 0);
	}

	@Test
	void waitingTasksTimeOutAsUnderAFixedLimit() throws Exception {
		this.executor = executor(adaptive(1, 1), new OverloadProtection(Duration.ofMillis(50)));
		this.fixture.submitBlocking(1);
		this.fixture.awaitStats((stats) -> stats.running() == 1);
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
	void theLimitOutlivesSwitchesAndWaitingTasksMoveOver() {
		this.executor = executor(adaptive(2, 2), null);
		this.fixture.submitBlocking(5);
		this.fixture.awaitStats((stats) -> stats.running() == 2 && stats.queued() == 3);
		AdaptiveLimiter before = this.limit.get();
		this.executor.switchTo(this.executor.getSettings().with(ThreadModel.PLATFORM, null, null),
				SwitchSource.APPLICATION, "test");
		assertThat(this.executor.admission()).isNull();
		this.fixture.awaitStats((stats) -> stats.running() == 5 && stats.queued() == 0);
		this.executor.switchTo(this.executor.getSettings().with(ThreadModel.VIRTUAL, null, null),
				SwitchSource.APPLICATION, "test");
		// the same limit, still counting the two tasks it admitted before the switches
		assertThat(this.limit.get()).isSameAs(before);
		assertThat(this.executor.admission().inFlight()).isEqualTo(2);
		this.fixture.submitBlocking(1);
		this.fixture.awaitStats((stats) -> stats.queued() == 1);
		this.fixture.release();
		this.fixture.awaitStats((stats) -> stats.completed() == 6 && stats.queued() == 0);
		assertThat(this.executor.admission().inFlight()).isZero();
	}

	@Test
	void aFixedLimitTakesThePlaceOfTheAdaptiveOne() {
		this.executor = executor(adaptive(2, 10), null);
		this.executor.switchTo(this.executor.getSettings().with(ThreadModel.VIRTUAL, null, 7),
				SwitchSource.APPLICATION, "test");
		assertThat(this.executor.admission()).satisfies((admission) -> {
			assertThat(admission.mode()).isEqualTo("fixed");
			assertThat(admission.limit()).isEqualTo(7);
			assertThat(admission.algorithm()).isNull();
		});
		assertThat(this.executor.stats().maxConcurrency()).isEqualTo(7);
		// the adaptive limiter it replaced no longer listens to the collector
		assertThat(this.limit.get().isClosed()).isTrue();
	}

	@Test
	void anAdaptiveLimiterLivesOnlyWhileAdmissionIsAdaptive() {
		this.executor = executor(adaptive(2, 10), null);
		this.executor.switchTo(this.executor.getSettings().with(ThreadModel.VIRTUAL, null, 3),
				SwitchSource.APPLICATION, "fixed");
		AdaptiveLimiter first = this.limit.get();
		assertThat(first.isClosed()).isTrue();
		this.executor.switchTo(new ExecutorSettings(ThreadModel.VIRTUAL, this.executor.getSettings().platform(),
				adaptive(4, 10)), SwitchSource.APPLICATION, "adaptive");
		AdaptiveLimiter second = this.limit.get();
		assertThat(second).isNotSameAs(first);
		assertThat(second.isClosed()).isFalse();
		assertThat(this.executor.admission().mode()).isEqualTo("adaptive");
		assertThat(this.executor.admission().minLimit()).isEqualTo(4);
		this.executor.switchTo(new ExecutorSettings(ThreadModel.VIRTUAL, this.executor.getSettings().platform(),
				UnlimitedAdmission.INSTANCE), SwitchSource.APPLICATION, "unlimited");
		assertThat(second.isClosed()).isTrue();
		assertThat(this.limit.get()).isSameAs(second);
		assertThat(this.executor.admission().mode()).isEqualTo("unlimited");
	}

	private ThreadModelExecutor executor(AdaptiveAdmission adaptive, OverloadProtection overload) {
		return this.fixture.use(new ThreadModelExecutor("test-", virtualAdaptive(adaptive), overload, (settings) -> {
			AdaptiveLimiter created = new AdaptiveLimiter(settings, this.now::get, settings.minLimit(), () -> -1, () -> {
			});
			this.limit.set(created);
			return created;
		}));
	}

	private static AdaptiveAdmission adaptive(int min, int max) {
		return new AdaptiveAdmission(min, max, 0.8);
	}

	private static ExecutorSettings virtualAdaptive(AdaptiveAdmission adaptive) {
		return new ExecutorSettings(ThreadModel.VIRTUAL,
				new ExecutorSettings.PlatformPool(8, 0, null, Duration.ofSeconds(60)), adaptive);
	}

	/** Runs a task that ends at once: the limit knows how long tasks run. */
	private void runQuickTask() throws InterruptedException {
		CountDownLatch ran = new CountDownLatch(1);
		this.executor.execute(ran::countDown);
		assertThat(ran.await(5, TimeUnit.SECONDS)).isTrue();
		this.fixture.awaitStats((stats) -> stats.completed() == 1);
	}

	/**
	 * Reports collections that left the heap 10 % full, a growth interval apart: each lets
	 * the limit grow once while tasks wait.
	 */
	private void collect(int count) {
		for (int i = 0; i < count; i++) {
			this.now.addAndGet(HeapLimit.GROWTH_INTERVAL.toNanos());
			this.limit.get().onHeapUsedAfterGc(0.1);
		}
	}

}
