package io.github.threadmodel.executor;

import java.time.Duration;

/**
 * A snapshot of what a {@link ThreadModelExecutor} has done and is doing.
 *
 * @param model the thread model in force
 * @param running tasks running now
 * @param queued tasks accepted and waiting for a thread (the queue depth)
 * @param peakQueued the highest queue depth seen
 * @param submitted tasks handed to the executor
 * @param started tasks that got a thread
 * @param completed tasks that ran to the end, normally or not
 * @param rejected tasks refused: queue full, waited longer than the queue timeout, or
 * executor closed
 * @param totalWait time spent by started tasks waiting for a thread, summed
 * @param maxWait the longest time a started task waited for a thread
 * @param poolSize platform threads alive now, or {@code null} on virtual threads
 * @param maxPoolSize the platform pool's limit, or {@code null} on virtual threads
 * @param maxConcurrency the virtual concurrency limit, or {@code null} when unlimited or on platform threads
 * @param peakRunning the most tasks seen running at once (refused tasks are not counted)
 * @param timedOut tasks refused because they waited longer than the queue timeout (part of
 * {@code rejected})
 */
public record ExecutorStats(ThreadModel model, int running, int queued, int peakQueued, long submitted,
		long started, long completed, long rejected, Duration totalWait, Duration maxWait, Integer poolSize, Integer maxPoolSize,
		Integer maxConcurrency, int peakRunning, long timedOut) {

}
