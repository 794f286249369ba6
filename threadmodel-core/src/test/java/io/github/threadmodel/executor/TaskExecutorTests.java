package io.github.threadmodel.executor;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.github.threadmodel.executor.ExecutorSettings.TaskLimit;
import io.github.threadmodel.testapp.ExecutorFixture;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.core.task.TaskDecorator;
import org.springframework.core.task.TaskRejectedException;

import static io.github.threadmodel.testapp.ExecutorFixture.awaitOpen;
import static io.github.threadmodel.testapp.ExecutorFixture.platform;
import static io.github.threadmodel.testapp.ExecutorFixture.virtual;
import static io.github.threadmodel.testapp.ExecutorFixture.waiting;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The executor as the application task executor: a decorator applied where a task is
 * handed over, a task limit that holds on both models and across switches, and a close
 * that waits for the accepted tasks.
 */
class TaskExecutorTests {

	private static final ThreadLocal<String> context = new ThreadLocal<>();

	@RegisterExtension
	final ExecutorFixture fixture = new ExecutorFixture();

	private ThreadModelExecutor executor;

	@ParameterizedTest
	@EnumSource(ThreadModel.class)
	void theDecoratorCarriesTheCallersContextOnBothModelsAndAcrossASwitch(ThreadModel model) throws Exception {
		this.executor = this.fixture.use(new ThreadModelExecutor("task-", settings(model), (TaskLimit) null));
		this.executor.setTaskDecorator(new CapturingDecorator());
		assertThat(seenContext("before")).isEqualTo("before");
		ThreadModel other = (model == ThreadModel.PLATFORM) ? ThreadModel.VIRTUAL : ThreadModel.PLATFORM;
		this.executor.switchTo(this.executor.getSettings().with(other, null, null), SwitchSource.APPLICATION, "test");
		assertThat(seenContext("after")).isEqualTo("after");
		assertThat(this.executor.getTaskDecorator()).isInstanceOf(CapturingDecorator.class);
	}

	@ParameterizedTest
	@EnumSource(ThreadModel.class)
	void aCallerBeyondTheLimitWaitsForATurnThenIsRefused(ThreadModel model) throws Exception {
		this.executor = this.fixture.use(new ThreadModelExecutor("task-", settings(model),
				new TaskLimit(2, Duration.ofMillis(200))));
		this.fixture.submitBlocking(1);
		this.fixture.submitBlocking(1);
		waiting().until(() -> this.executor.stats().running() == 2);
		long start = System.nanoTime();
		assertThatExceptionOfType(TaskRejectedException.class).isThrownBy(() -> this.executor.execute(() -> {
		})).withMessageContaining("all 2 turns (max-concurrency) stayed taken for 200 ms (queue-timeout)");
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(190));
		ExecutorStats stats = this.executor.stats();
		assertThat(stats.rejected()).isEqualTo(1);
		assertThat(stats.timedOut()).isEqualTo(1);
		assertThat(stats.queued()).isZero();
		assertThat(stats.maxConcurrency()).isEqualTo(2);
	}

	@ParameterizedTest
	@EnumSource(ThreadModel.class)
	void aWaitingCallerGetsTheTurnOfATaskThatEnds(ThreadModel model) throws Exception {
		this.executor = this.fixture.use(new ThreadModelExecutor("task-", settings(model), new TaskLimit(1, null)));
		CountDownLatch first = new CountDownLatch(1);
		this.executor.execute(() -> awaitOpen(first));
		CompletableFuture<Void> second = CompletableFuture.runAsync(() -> this.executor.execute(() -> {
		}), (task) -> Thread.ofVirtual().start(task));
		waiting().until(() -> this.executor.stats().queued() == 1);
		assertThat(second).isNotDone();
		first.countDown();
		second.get(10, TimeUnit.SECONDS);
		waiting().until(() -> this.executor.stats().completed() == 2);
		assertThat(this.executor.stats().queueWait().count()).isEqualTo(1);
	}

	@ParameterizedTest
	@EnumSource(ThreadModel.class)
	void theLimitHoldsAcrossASwitch(ThreadModel model) throws Exception {
		this.executor = this.fixture.use(new ThreadModelExecutor("task-", settings(model),
				new TaskLimit(1, Duration.ZERO)));
		this.fixture.submitBlocking(1);
		ThreadModel other = (model == ThreadModel.PLATFORM) ? ThreadModel.VIRTUAL : ThreadModel.PLATFORM;
		this.executor.switchTo(this.executor.getSettings().with(other, null, null), SwitchSource.APPLICATION, "test");
		assertThatExceptionOfType(TaskRejectedException.class).isThrownBy(() -> this.executor.execute(() -> {
		}));
		this.fixture.release();
		waiting().until(() -> this.executor.stats().completed() == 1);
		CountDownLatch ran = new CountDownLatch(1);
		this.executor.execute(ran::countDown);
		assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
	}

	@ParameterizedTest
	@EnumSource(ThreadModel.class)
	void closeWaitsForTheAcceptedTasksWithATerminationTimeout(ThreadModel model) throws Exception {
		this.executor = this.fixture.use(new ThreadModelExecutor("task-", settings(model), (TaskLimit) null));
		this.executor.setTerminationTimeout(Duration.ofSeconds(10));
		List<String> done = new CopyOnWriteArrayList<>();
		this.executor.execute(() -> {
			this.fixture.awaitRelease();
			done.add("slow");
		});
		Thread closing = Thread.ofVirtual().start(this.executor::close);
		// close() waits for the task, at most the termination timeout
		waiting().until(() -> closing.getState() == Thread.State.TIMED_WAITING);
		this.fixture.release();
		assertThat(closing.join(Duration.ofSeconds(10))).isTrue();
		assertThat(done).containsExactly("slow");
	}

	private String seenContext(String value) throws Exception {
		CompletableFuture<String> seen = new CompletableFuture<>();
		context.set(value);
		try {
			this.executor.execute(() -> seen.complete(context.get()));
		}
		finally {
			context.remove();
		}
		return seen.get(10, TimeUnit.SECONDS);
	}

	private static ExecutorSettings settings(ThreadModel model) {
		return (model == ThreadModel.PLATFORM) ? platform(Integer.MAX_VALUE, 0, null) : virtual(null);
	}

	/**
	 * Carries the caller's {@link #context} to the thread that runs the task.
	 */
	private static final class CapturingDecorator implements TaskDecorator {

		@Override
		public Runnable decorate(Runnable runnable) {
			String captured = context.get();
			return () -> {
				context.set(captured);
				try {
					runnable.run();
				}
				finally {
					context.remove();
				}
			};
		}

	}

}
