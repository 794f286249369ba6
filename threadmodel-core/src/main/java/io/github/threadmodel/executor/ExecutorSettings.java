package io.github.threadmodel.executor;

import java.time.Duration;
import java.util.Objects;

/**
 * What a {@link ThreadModelExecutor} runs on: the model and the limits of each model.
 *
 * @param model the thread model
 * @param platform the platform pool's sizing, used when the model is {@link ThreadModel#PLATFORM}
 * @param admission how tasks are let in on virtual threads: without limit, under a fixed
 * limit, or under an adaptive one
 * @since 0.1.0
 */
public record ExecutorSettings(ThreadModel model, PlatformPool platform, Admission admission) {

	public ExecutorSettings {
		Objects.requireNonNull(admission, "admission");
	}

	/**
	 * The fixed limit on virtual threads.
	 * @return the limit, or {@code null} when admission is not fixed
	 */
	public Integer maxConcurrency() {
		return (this.admission instanceof FixedAdmission fixed) ? fixed.maxConcurrency() : null;
	}

	/**
	 * These settings with another model and, where given, other limits.
	 * @param model the model
	 * @param maxThreads the platform pool's new limit, or {@code null} to keep it (the
	 * pool's minimum follows when it would exceed it)
	 * @param maxConcurrency the new virtual concurrency limit, or {@code null} to keep it; a
	 * fixed limit, which takes the place of an adaptive one or of none
	 * @return the new settings
	 */
	public ExecutorSettings with(ThreadModel model, Integer maxThreads, Integer maxConcurrency) {
		PlatformPool pool = this.platform;
		if (maxThreads != null) {
			pool = new PlatformPool(maxThreads, Math.min(pool.minThreads(), maxThreads), pool.queueCapacity(),
					pool.keepAlive());
		}
		return new ExecutorSettings(model, pool,
				(maxConcurrency != null) ? new FixedAdmission(maxConcurrency) : this.admission);
	}

	/**
	 * How tasks are let in on virtual threads: one of {@link UnlimitedAdmission},
	 * {@link FixedAdmission} or {@link AdaptiveAdmission}.
	 */
	public sealed interface Admission permits UnlimitedAdmission, FixedAdmission, AdaptiveAdmission {

	}

	/**
	 * Every task runs at once on a virtual thread of its own, as plain virtual threads do.
	 */
	public record UnlimitedAdmission() implements Admission {

		/** The one instance. */
		public static final UnlimitedAdmission INSTANCE = new UnlimitedAdmission();

	}

	/**
	 * At most {@code maxConcurrency} tasks run at once; the others wait in arrival order.
	 *
	 * @param maxConcurrency the limit, 1 or more
	 */
	public record FixedAdmission(int maxConcurrency) implements Admission {

		/**
		 * Checks the limit.
		 * @throws IllegalArgumentException when it is below 1
		 */
		public FixedAdmission {
			if (maxConcurrency < 1) {
				throw new IllegalArgumentException("maxConcurrency must be 1 or more, not " + maxConcurrency);
			}
		}

	}

	/**
	 * Sizing of a platform thread pool.
	 *
	 * @param maxThreads the most threads the pool grows to before tasks queue
	 * @param minThreads the threads kept alive when idle
	 * @param queueCapacity how many tasks may wait for a thread, or {@code null} for no limit
	 * @param keepAlive how long a thread above {@code minThreads} stays idle before it ends
	 */
	public record PlatformPool(int maxThreads, int minThreads, Integer queueCapacity, Duration keepAlive) {

	}

	/**
	 * The bounds of an adaptive concurrency limit on virtual threads ({@link AdaptiveLimiter}):
	 * the limit starts at what the heap's room holds (within the bounds), grows while tasks
	 * wait and garbage collections show room in the heap, and falls below the tasks in flight
	 * whenever a collection leaves the heap fuller than {@code heapThreshold}.
	 *
	 * @param minLimit the least the limit falls to
	 * @param maxLimit the most it grows to
	 * @param heapThreshold share (above 0, at most 1) of the maximum heap that, still used
	 * after a garbage collection, counts as heap pressure
	 */
	public record AdaptiveAdmission(int minLimit, int maxLimit, double heapThreshold) implements Admission {

		/**
		 * Checks the bounds.
		 * @throws IllegalArgumentException when a bound is out of range
		 */
		public AdaptiveAdmission {
			if (minLimit < 1 || maxLimit < minLimit) {
				throw new IllegalArgumentException(
						"Limits must satisfy 1 <= minLimit <= maxLimit, not " + minLimit + " and " + maxLimit);
			}
			if (!(heapThreshold > 0 && heapThreshold <= 1)) {
				throw new IllegalArgumentException("heapThreshold must be above 0 and at most 1, not " + heapThreshold);
			}
		}

	}

	/**
	 * Makes a {@link ThreadModelExecutor} answer overload instead of refusing work with a
	 * {@link java.util.concurrent.RejectedExecutionException}, which web servers turn into a
	 * dropped connection: a task beyond the limits (platform queue full, or a wait for a
	 * virtual-thread permit longer than {@code queueTimeout}) runs at once on a virtual thread
	 * of its own with its {@link Refusal} set, and is counted as rejected.
	 *
	 * @param queueTimeout the longest a task may wait for a permit of the virtual concurrency
	 * limit, or {@code null} to wait without limit
	 */
	public record OverloadProtection(Duration queueTimeout) {

	}

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

}
