package io.github.threadmodel.executor;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import io.github.threadmodel.executor.ExecutorSettings.TaskLimit;

import org.springframework.core.task.TaskRejectedException;

/**
 * The turns of a {@link TaskLimit}: a caller beyond the limit waits for one in arrival
 * order, at most the limit's queue timeout. They hold across switches.
 */
final class TaskTurns {

	private final TaskLimit limit;

	/** Fair: callers that wait for a turn get one in arrival order. */
	private final Semaphore turns;

	TaskTurns(TaskLimit limit) {
		this.limit = limit;
		this.turns = new Semaphore(limit.maxConcurrency(), true);
	}

	TaskLimit limit() {
		return this.limit;
	}

	/**
	 * Takes a turn if one is free now. Timed even though it does not wait: the untimed
	 * {@code tryAcquire()} would take a turn ahead of the callers already waiting.
	 */
	boolean takeFree() throws InterruptedException {
		return this.turns.tryAcquire(0, TimeUnit.NANOSECONDS);
	}

	/**
	 * Waits for a turn, at most the limit's queue timeout.
	 * @return whether a turn came
	 */
	boolean await() throws InterruptedException {
		Duration timeout = this.limit.queueTimeout();
		if (timeout != null) {
			return this.turns.tryAcquire(timeout.toNanos(), TimeUnit.NANOSECONDS);
		}
		this.turns.acquire();
		return true;
	}

	void giveBack() {
		this.turns.release();
	}

	TaskRejectedException interrupted(Object executor) {
		return new TaskRejectedException(executor + " did not accept a task: the caller was interrupted "
				+ "while it waited for one of the " + this.limit.maxConcurrency() + " turns");
	}

	TaskRejectedException timedOut(Object executor) {
		return new TaskRejectedException(executor + " did not accept a task: all " + this.limit.maxConcurrency()
				+ " turns (max-concurrency) stayed taken for " + this.limit.queueTimeout().toMillis()
				+ " ms (queue-timeout)");
	}

}
