package io.github.threadmodel.executor;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

import io.github.threadmodel.executor.ExecutorSettings.OverloadProtection;
import io.github.threadmodel.testapp.ExecutorFixture;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static io.github.threadmodel.testapp.ExecutorFixture.platform;
import static io.github.threadmodel.testapp.ExecutorFixture.virtual;
import static io.github.threadmodel.testapp.ExecutorFixture.waiting;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * An executor with {@link OverloadProtection} runs the tasks it cannot admit at once,
 * outside its limits, marked with their {@link Refusal}, instead of throwing.
 */
class OverloadProtectionTests {

	@RegisterExtension
	final ExecutorFixture fixture = new ExecutorFixture();

	/** What each recording task saw: its refusal, or "admitted". */
	private final List<String> seen = new CopyOnWriteArrayList<>();

	private ThreadModelExecutor executor;

	@Test
	void taskFindingTheQueueFullRunsRefusedOnAVirtualThread() throws Exception {
		this.executor = this.fixture.use(new ThreadModelExecutor("test-", platform(2, 0, 1),
				new OverloadProtection(null)));
		this.fixture.submitBlocking(3);
		this.fixture.awaitStats((stats) -> stats.running() == 2 && stats.queued() == 1);
		CountDownLatch ran = new CountDownLatch(1);
		this.executor.execute(() -> {
			Thread thread = Thread.currentThread();
			this.seen.add(Refusal.current() + " " + thread.getName() + " virtual=" + thread.isVirtual());
			ran.countDown();
		});
		assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
		assertThat(this.seen).containsExactly("QUEUE_FULL test-refused virtual=true");
		assertThat(this.executor.stats()).satisfies((stats) -> {
			assertThat(stats.rejected()).isEqualTo(1);
			assertThat(stats.timedOut()).isZero();
			assertThat(stats.queued()).isEqualTo(1);
			assertThat(stats.peakRunning()).isEqualTo(2);
		});
		this.fixture.release();
		this.fixture.awaitStats((stats) -> stats.completed() == 3 && stats.running() == 0);
		assertThat(Refusal.current()).isNull();
	}

	@Test
	void taskWaitingLongerThanTheQueueTimeoutRunsRefused() throws Exception {
		this.executor = this.fixture.use(new ThreadModelExecutor("test-", virtual(1),
				new OverloadProtection(Duration.ofMillis(100))));
		this.fixture.submitBlocking(1);
		this.fixture.awaitStats((stats) -> stats.running() == 1);
		submitRecording(1, false);
		// the permit is still held: the waiting task left the queue on its own
		this.fixture.awaitStats((stats) -> stats.timedOut() == 1 && stats.queued() == 0);
		awaitSeen(1);
		assertThat(this.seen).containsExactly("QUEUE_TIMEOUT");
		assertThat(this.executor.stats().rejected()).isEqualTo(1);
		assertThat(this.executor.stats().running()).isEqualTo(1);
	}

	@Test
	void tasksHandedOverAtASwitchDoNotTimeOutOnTheNewThreads() throws Exception {
		this.executor = this.fixture.use(new ThreadModelExecutor("test-", platform(1, 0, 5),
				new OverloadProtection(Duration.ofMillis(100))));
		this.fixture.submitBlocking(1);
		this.fixture.awaitStats((stats) -> stats.running() == 1);
		submitRecording(3, true);
		this.fixture.awaitStats((stats) -> stats.queued() == 3);
		assertThat(this.executor.switchTo(virtual(1), SwitchSource.APPLICATION, "test").handedOver()).isEqualTo(3);
		// One handed-over task takes the new permit and blocks; the other two wait behind it.
		awaitSeen(1);
		// A task submitted now waits behind them and times out: by then they have waited longer.
		submitRecording(1, false);
		this.fixture.awaitStats((stats) -> stats.timedOut() == 1);
		assertThat(this.executor.stats().queued()).isEqualTo(2);
		this.fixture.release();
		awaitSeen(4);
		assertThat(this.seen).containsExactlyInAnyOrder("admitted", "admitted", "admitted", "QUEUE_TIMEOUT");
		this.fixture.awaitStats((stats) -> stats.completed() == 4 && stats.rejected() == 1);
	}

	@ParameterizedTest
	@ValueSource(strings = { "platform", "virtual" })
	void taskWaitingLongerThanTheMaxIdleWaitRunsRefused(String model) throws Exception {
		this.executor = this.fixture.use(new ThreadModelExecutor("test-",
				model.equals("platform") ? platform(1, 0, null) : virtual(1), new OverloadProtection(null)));
		this.executor.setMaxIdleWait(Duration.ofMillis(200));
		this.fixture.submitBlocking(1);
		this.fixture.awaitStats((stats) -> stats.running() == 1);
		submitRecording(2, false);
		// the thread (or permit) is still held: the waiting tasks left the queue on their own
		this.fixture.awaitStats((stats) -> stats.timedOut() == 2 && stats.queued() == 0);
		awaitSeen(2);
		assertThat(this.seen).containsExactly("IDLE_TIMEOUT", "IDLE_TIMEOUT");
		assertThat(this.executor.stats().rejected()).isEqualTo(2);
		assertThat(this.executor.stats().running()).isEqualTo(1);
		// the thread that was held runs the next task as usual: nothing refused is left in the queue
		this.fixture.release();
		submitRecording(1, false);
		awaitSeen(3);
		assertThat(this.seen).endsWith("admitted");
		this.fixture.awaitStats((stats) -> stats.completed() == 2 && stats.rejected() == 2);
	}

	@Test
	void aShorterQueueTimeoutRefusesFirst() throws Exception {
		this.executor = this.fixture.use(new ThreadModelExecutor("test-", virtual(1),
				new OverloadProtection(Duration.ofMillis(100))));
		this.executor.setMaxIdleWait(Duration.ofSeconds(30));
		this.fixture.submitBlocking(1);
		this.fixture.awaitStats((stats) -> stats.running() == 1);
		submitRecording(1, false);
		awaitSeen(1);
		assertThat(this.seen).containsExactly("QUEUE_TIMEOUT");
	}

	@Test
	void tasksHandedOverAtASwitchStillLeaveTheQueueAtTheMaxIdleWait() throws Exception {
		this.executor = this.fixture.use(new ThreadModelExecutor("test-", platform(1, 0, null),
				new OverloadProtection(null)));
		this.executor.setMaxIdleWait(Duration.ofMillis(500));
		this.fixture.submitBlocking(1);
		this.fixture.awaitStats((stats) -> stats.running() == 1);
		submitRecording(2, true);
		this.fixture.awaitStats((stats) -> stats.queued() == 2);
		// the first handed-over task takes the new permit and blocks; the second waits behind it
		this.executor.switchTo(virtual(1), SwitchSource.APPLICATION, "test");
		this.fixture.awaitStats((stats) -> stats.timedOut() == 1 && stats.queued() == 0);
		awaitSeen(2);
		assertThat(this.seen).containsExactly("admitted", "IDLE_TIMEOUT");
		this.fixture.release();
	}

	@ParameterizedTest
	@ValueSource(strings = { "platform", "virtual" })
	void finishingTheQueueLetsWaitingTasksRunWithinTheTimeout(String model) throws Exception {
		this.executor = this.fixture.use(new ThreadModelExecutor("test-",
				model.equals("platform") ? platform(2, 0, null) : virtual(2),
				new OverloadProtection(null)));
		this.fixture.submitBlocking(2);
		this.fixture.awaitStats((stats) -> stats.running() == 2);
		submitRecording(4, false);
		this.fixture.awaitStats((stats) -> stats.queued() == 4);
		CompletableFuture<Integer> refused = new CompletableFuture<>();
		Thread finishing = Thread.ofVirtual().start(() -> {
			try {
				refused.complete(this.executor.finishQueued(Duration.ofSeconds(10)));
			}
			catch (InterruptedException ex) {
				refused.completeExceptionally(ex);
			}
		});
		// it waits for the queue, and the waiting tasks start once threads are free
		waiting().until(() -> finishing.getState() == Thread.State.TIMED_WAITING);
		this.fixture.release();
		assertThat(refused).succeedsWithin(Duration.ofSeconds(10)).isEqualTo(0);
		awaitSeen(4);
		assertThat(this.seen).containsOnly("admitted");
		assertThat(this.executor.stats().rejected()).isZero();
	}

	@ParameterizedTest
	@ValueSource(strings = { "platform", "virtual" })
	void tasksStillWaitingWhenTheTimeoutPassesRunRefused(String model) throws Exception {
		this.executor = this.fixture.use(new ThreadModelExecutor("test-",
				model.equals("platform") ? platform(2, 0, null) : virtual(2),
				new OverloadProtection(null)));
		this.fixture.submitBlocking(2);
		this.fixture.awaitStats((stats) -> stats.running() == 2);
		submitRecording(3, false);
		this.fixture.awaitStats((stats) -> stats.queued() == 3);
		long start = System.nanoTime();
		assertThat(this.executor.finishQueued(Duration.ofMillis(200))).isEqualTo(3);
		assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(200));
		awaitSeen(3);
		assertThat(this.seen).containsOnly("SHUTDOWN");
		assertThat(this.executor.stats()).satisfies((stats) -> {
			assertThat(stats.rejected()).isEqualTo(3);
			assertThat(stats.queued()).isZero();
			assertThat(stats.running()).isEqualTo(2);
		});
		// the executor still serves: a new task runs once a thread is free
		this.fixture.release();
		submitRecording(1, false);
		awaitSeen(4);
		assertThat(this.seen).containsExactly("SHUTDOWN", "SHUTDOWN", "SHUTDOWN", "admitted");
	}

	@Test
	void closedExecutorStillRefusesWithAnException() {
		this.executor = this.fixture.use(new ThreadModelExecutor("test-", platform(2, 0, 1),
				new OverloadProtection(null)));
		this.executor.close();
		assertThatExceptionOfType(RejectedExecutionException.class).isThrownBy(() -> this.executor.execute(() -> {
		}));
	}

	private void submitRecording(int count, boolean thenBlock) {
		for (int i = 0; i < count; i++) {
			this.executor.execute(() -> {
				Refusal refusal = Refusal.current();
				this.seen.add((refusal != null) ? refusal.name() : "admitted");
				if (thenBlock) {
					this.fixture.awaitRelease();
				}
			});
		}
	}

	private void awaitSeen(int count) {
		waiting().until(() -> this.seen.size() >= count);
	}

}
