package io.github.threadmodel.executor;

import java.time.Duration;

/**
 * A snapshot of what a {@link ThreadModelExecutor} has done and is doing.
 *
 * @param model the thread model in force
 * @param running tasks running now
 * @param queued tasks waiting behind the model's limit now (the queue depth): every
 * platform thread of the pool busy, or every permit of the virtual concurrency limit
 * taken. A task that has a thread, or a virtual thread of its own waiting for a carrier,
 * is not queued.
 * @param peakQueued the highest queue depth seen
 * @param submitted tasks handed to the executor
 * @param started tasks that got a thread
 * @param completed tasks that ran to the end, normally or not
 * @param rejected tasks refused: queue full, waited longer than the queue timeout or the
 * longest idle wait, or executor closed
 * @param totalWait time spent by started tasks from their hand-over to their start,
 * summed: the wait behind the limit and, on virtual threads, the wait for a carrier
 * @param maxWait the longest such time
 * @param poolSize platform threads alive now, or {@code null} on virtual threads
 * @param maxPoolSize the platform pool's limit, or {@code null} on virtual threads or for a
 * pool without one
 * @param maxConcurrency the virtual concurrency limit, or the executor's
 * {@link ExecutorSettings.TaskLimit} on either model; {@code null} when unlimited or on
 * platform threads
 * @param peakRunning the most tasks seen running at once (refused tasks are not counted)
 * @param timedOut tasks refused because they waited longer than the queue timeout or the
 * longest idle wait (part of {@code rejected})
 * @param queueWait the tasks that waited behind the limit and then got a thread, and how
 * long they waited
 * @param carrierWait the tasks that got a virtual thread of their own, and how long that
 * thread waited for a carrier thread before it ran them (the JDK's scheduling delay: all
 * carriers busy, the CPU short)
 * @since 0.1.0
 */
public record ExecutorStats(ThreadModel model, int running, int queued, int peakQueued, long submitted,
		long started, long completed, long rejected, Duration totalWait, Duration maxWait, Integer poolSize, Integer maxPoolSize,
		Integer maxConcurrency, int peakRunning, long timedOut, Wait queueWait, Wait carrierWait) {

	/**
	 * Waits of one kind since the executor was created.
	 *
	 * @param count how many tasks waited
	 * @param total their waits, summed
	 * @param max the longest wait
	 */
	public record Wait(long count, Duration total, Duration max) {

		/**
		 * The average wait.
		 * @return the average, zero when no task waited
		 */
		public Duration average() {
			return (this.count > 0) ? this.total.dividedBy(this.count) : Duration.ZERO;
		}

	}

	/**
	 * How a {@link ThreadModelExecutor} on virtual threads admits tasks, and where its limit
	 * stands.
	 *
	 * @param mode {@code adaptive} (the limit follows the heap:
	 * {@link ExecutorSettings.AdaptiveAdmission}), {@code fixed} (a fixed concurrency limit)
	 * or {@code unlimited}
	 * @param algorithm the adaptive limit's algorithm ({@code heap}), or {@code null}
	 * @param limit the most tasks that may run at once now, or {@code null} when unlimited
	 * @param inFlight tasks holding a permit now (tasks running, unless unlimited: then 0)
	 * @param minLimit the least the adaptive limit falls to, or {@code null}
	 * @param maxLimit the most the adaptive limit grows to, or {@code null}
	 * @param heapThreshold the share of the heap that, used after a garbage collection,
	 * decreases the adaptive limit, or {@code null}
	 * @param heapUsedAfterGc the share of the heap used after the last garbage collection, or
	 * {@code null} before the first one or without an adaptive limit
	 * @param heapDecreases garbage collections that found the heap above the threshold and
	 * decreased the limit
	 */
	public record Admission(String mode, String algorithm, Integer limit, int inFlight, Integer minLimit,
			Integer maxLimit, Double heapThreshold, Double heapUsedAfterGc, long heapDecreases) {

		static final Admission UNLIMITED = new Admission("unlimited", null, null, 0, null, null, null, null, 0);

		static Admission of(Permits permits) {
			if (permits instanceof AdaptiveLimiter adaptive) {
				ExecutorSettings.AdaptiveAdmission settings = adaptive.settings();
				return new Admission("adaptive", HeapLimit.ALGORITHM, adaptive.limit(), adaptive.inFlight(),
						settings.minLimit(), settings.maxLimit(), settings.heapThreshold(), adaptive.heapUsedAfterGc(),
						adaptive.heapDecreases());
			}
			if (permits != null) {
				return new Admission("fixed", null, permits.limit(), permits.inFlight(), null, null, null, null, 0);
			}
			return UNLIMITED;
		}

	}

}
