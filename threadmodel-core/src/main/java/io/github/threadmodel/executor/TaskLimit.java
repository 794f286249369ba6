package io.github.threadmodel.executor;

import java.time.Duration;

/**
 * A bound on the tasks of an application task executor that holds whatever its model: at
 * most {@code maxConcurrency} tasks run at once, and a caller that hands over one more
 * waits for a turn, in arrival order, at most {@code queueTimeout}; then the task is
 * refused with Spring's {@link org.springframework.core.task.TaskRejectedException},
 * thrown to that caller. Like the concurrency limit of Spring's
 * {@code SimpleAsyncTaskExecutor}, the wait is the caller's: a task is refused where it
 * was handed over, so that no caller waits for a task that will never run.
 *
 * @param maxConcurrency how many tasks may run at once, 1 or more
 * @param queueTimeout the longest a caller waits for a turn, zero to refuse at once, or
 * {@code null} to wait until a task ends
 * @since 0.1.0
 */
public record TaskLimit(int maxConcurrency, Duration queueTimeout) {

	public TaskLimit {
		if (maxConcurrency < 1) {
			throw new IllegalArgumentException("maxConcurrency must be 1 or more, not " + maxConcurrency);
		}
		if (queueTimeout != null && queueTimeout.isNegative()) {
			throw new IllegalArgumentException("queueTimeout must not be negative, not " + queueTimeout);
		}
	}

}
