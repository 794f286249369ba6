package io.github.threadmodel.testapp;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import io.github.threadmodel.executor.ExecutorSettings.FixedAdmission;
import io.github.threadmodel.executor.ExecutorSettings.UnlimitedAdmission;
import io.github.threadmodel.executor.ExecutorSettings;
import io.github.threadmodel.executor.ExecutorStats;
import io.github.threadmodel.executor.ThreadModel;
import io.github.threadmodel.executor.ThreadModelExecutor;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The executors a test works with, shared by the core's tests: tasks that block until
 * the test releases them, waits on the executor's figures, and the settings of either
 * model. Registered with {@code @RegisterExtension}; after each test it releases the
 * blocked tasks and closes every executor it was given.
 */
public final class ExecutorFixture implements AfterEachCallback {

	private final CountDownLatch release = new CountDownLatch(1);

	private final List<Thread> ranOn = new CopyOnWriteArrayList<>();

	private final List<ThreadModelExecutor> toClose = new CopyOnWriteArrayList<>();

	private ThreadModelExecutor executor;

	/**
	 * Makes the executor the one this fixture works with and closes it after the test,
	 * with every executor given before.
	 * @param executor the executor
	 * @return the executor
	 */
	public ThreadModelExecutor use(ThreadModelExecutor executor) {
		this.executor = executor;
		this.toClose.add(executor);
		return executor;
	}

	/**
	 * Hands over tasks that note the thread they run on, then block until {@link #release()}.
	 */
	public void submitBlocking(int count) {
		for (int i = 0; i < count; i++) {
			this.executor.execute(() -> {
				this.ranOn.add(Thread.currentThread());
				awaitRelease();
			});
		}
	}

	/** Blocks the calling task until {@link #release()}. */
	public void awaitRelease() {
		awaitOpen(this.release);
	}

	/** Blocks the calling task until the latch opens. */
	public static void awaitOpen(CountDownLatch latch) {
		try {
			latch.await(30, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/** Lets every blocked task end. */
	public void release() {
		this.release.countDown();
	}

	/** The threads the blocking tasks ran on, in the order they started. */
	public List<Thread> ranOn() {
		return this.ranOn;
	}

	/** Waits until the executor's figures match. */
	public void awaitStats(Predicate<ExecutorStats> condition) {
		waiting().untilAsserted(() -> assertThat(this.executor.stats()).matches(condition));
	}

	/** An Awaitility wait that looks often, for conditions that hold within milliseconds. */
	public static ConditionFactory waiting() {
		return await().atMost(Duration.ofSeconds(10)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(5));
	}

	@Override
	public void afterEach(ExtensionContext context) {
		release();
		for (ThreadModelExecutor executor : this.toClose) {
			executor.close();
		}
	}

	public static ExecutorSettings platform(int max, int min, Integer queueCapacity) {
		return new ExecutorSettings(ThreadModel.PLATFORM,
				new ExecutorSettings.PlatformPool(max, min, queueCapacity, Duration.ofSeconds(60)),
				UnlimitedAdmission.INSTANCE);
	}

	public static ExecutorSettings virtual(Integer maxConcurrency) {
		return new ExecutorSettings(ThreadModel.VIRTUAL,
				new ExecutorSettings.PlatformPool(200, 10, null, Duration.ofSeconds(60)),
				(maxConcurrency != null) ? new FixedAdmission(maxConcurrency) : UnlimitedAdmission.INSTANCE);
	}

}
