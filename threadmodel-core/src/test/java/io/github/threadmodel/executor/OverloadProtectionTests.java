package io.github.threadmodel.executor;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import io.github.threadmodel.executor.ExecutorStats;
import io.github.threadmodel.executor.ThreadModelExecutor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static io.github.threadmodel.executor.ThreadModelExecutorTests.platform;
import static io.github.threadmodel.executor.ThreadModelExecutorTests.virtual;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * An executor with {@link OverloadProtection} runs the tasks it cannot admit at once,
 * outside its limits, marked with their {@link Refusal}, instead of throwing.
 */
class OverloadProtectionTests {

	private final CountDownLatch release = new CountDownLatch(1);

	/** What each recording task saw: its refusal, or "admitted". */
	private final List<String> seen = new CopyOnWriteArrayList<>();

	private ThreadModelExecutor executor;

	@AfterEach
	void releaseAndClose() {
		this.release.countDown();
		if (this.executor != null) {
			this.executor.close();
		}
	}

	@Test
	void taskFindingTheQueueFullRunsRefusedOnAVirtualThread() throws Exception {
		this.executor = new ThreadModelExecutor("test-", platform(2, 0, 1), new OverloadProtection(null));
		submitBlocking(3);
		awaitStats((stats) -> stats.running() == 2 && stats.queued() == 1);
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
		this.release.countDown();
		awaitStats((stats) -> stats.completed() == 3 && stats.running() == 0);
		assertThat(Refusal.current()).isNull();
	}

	@Test
	void taskWaitingLongerThanTheQueueTimeoutRunsRefused() throws Exception {
		this.executor = new ThreadModelExecutor("test-", virtual(1), new OverloadProtection(Duration.ofMillis(100)));
		submitBlocking(1);
		awaitStats((stats) -> stats.running() == 1);
		submitRecording(1, false);
		// the permit is still held: the waiting task left the queue on its own
		awaitStats((stats) -> stats.timedOut() == 1 && stats.queued() == 0);
		awaitSeen(1);
		assertThat(this.seen).containsExactly("QUEUE_TIMEOUT");
		assertThat(this.executor.stats().rejected()).isEqualTo(1);
		assertThat(this.executor.stats().running()).isEqualTo(1);
	}

	@Test
	void tasksHandedOverAtASwitchDoNotTimeOutOnTheNewThreads() throws Exception {
		this.executor = new ThreadModelExecutor("test-", platform(1, 0, 5), new OverloadProtection(Duration.ofMillis(100)));
		submitBlocking(1);
		awaitStats((stats) -> stats.running() == 1);
		submitRecording(3, true);
		awaitStats((stats) -> stats.queued() == 3);
		assertThat(this.executor.switchTo(virtual(1), "test").handedOver()).isEqualTo(3);
		// One handed-over task takes the new permit and blocks; the other two wait behind it.
		awaitSeen(1);
		// A task submitted now waits behind them and times out: by then they have waited longer.
		submitRecording(1, false);
		awaitStats((stats) -> stats.timedOut() == 1);
		assertThat(this.executor.stats().queued()).isEqualTo(2);
		this.release.countDown();
		awaitSeen(4);
		assertThat(this.seen).containsExactlyInAnyOrder("admitted", "admitted", "admitted", "QUEUE_TIMEOUT");
		awaitStats((stats) -> stats.completed() == 4 && stats.rejected() == 1);
	}

	@ParameterizedTest
	@ValueSource(strings = { "platform", "virtual" })
	void finishingTheQueueLetsWaitingTasksRunWithinTheTimeout(String model) throws Exception {
		this.executor = new ThreadModelExecutor("test-", model.equals("platform") ? platform(2, 0, null) : virtual(2),
				new OverloadProtection(null));
		submitBlocking(2);
		awaitStats((stats) -> stats.running() == 2);
		submitRecording(4, false);
		awaitStats((stats) -> stats.queued() == 4);
		Thread.ofVirtual().start(() -> {
			sleep(100);
			this.release.countDown();
		});
		assertThat(this.executor.finishQueued(Duration.ofSeconds(10))).isZero();
		awaitSeen(4);
		assertThat(this.seen).containsOnly("admitted");
		assertThat(this.executor.stats().rejected()).isZero();
	}

	@ParameterizedTest
	@ValueSource(strings = { "platform", "virtual" })
	void tasksStillWaitingWhenTheTimeoutPassesRunRefused(String model) throws Exception {
		this.executor = new ThreadModelExecutor("test-", model.equals("platform") ? platform(2, 0, null) : virtual(2),
				new OverloadProtection(null));
		submitBlocking(2);
		awaitStats((stats) -> stats.running() == 2);
		submitRecording(3, false);
		awaitStats((stats) -> stats.queued() == 3);
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
		this.release.countDown();
		submitRecording(1, false);
		awaitSeen(4);
		assertThat(this.seen).containsExactly("SHUTDOWN", "SHUTDOWN", "SHUTDOWN", "admitted");
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@Test
	void closedExecutorStillRefusesWithAnException() {
		this.executor = new ThreadModelExecutor("test-", platform(2, 0, 1), new OverloadProtection(null));
		this.executor.close();
		assertThatExceptionOfType(RejectedExecutionException.class).isThrownBy(() -> this.executor.execute(() -> {
		}));
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

	private void submitRecording(int count, boolean thenBlock) {
		for (int i = 0; i < count; i++) {
			this.executor.execute(() -> {
				Refusal refusal = Refusal.current();
				this.seen.add((refusal != null) ? refusal.name() : "admitted");
				if (thenBlock) {
					try {
						this.release.await();
					}
					catch (InterruptedException ex) {
						Thread.currentThread().interrupt();
					}
				}
			});
		}
	}

	private void awaitSeen(int count) throws InterruptedException {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (this.seen.size() < count) {
			assertThat(System.nanoTime()).as("seen: %s", this.seen).isLessThan(deadline);
			Thread.sleep(5);
		}
	}

	private void awaitStats(Predicate<ExecutorStats> condition) throws InterruptedException {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (!condition.test(this.executor.stats())) {
			assertThat(System.nanoTime()).as("stats never matched: %s", this.executor.stats()).isLessThan(deadline);
			Thread.sleep(5);
		}
	}

}
