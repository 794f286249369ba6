package io.github.threadmodel.internal.auto;

import java.time.Duration;
import java.util.List;

import io.github.threadmodel.executor.ExecutorStats;
import io.github.threadmodel.executor.ThreadModelExecutor;
import io.github.threadmodel.internal.auto.AutoThreadModelPolicy.WorkloadSample;

/**
 * Turns the running totals of the executors auto switches (the request executor, and the
 * application task executor when it follows the server) and the scheduling-delay probe
 * into one {@link WorkloadSample} per window: the difference since the previous sample.
 */
final class WorkloadSampler {

	private final ThreadModelExecutor requests;

	private final List<Totals> executors;

	private final SchedulingDelayProbe probe;

	private final int processors;

	private long lastNanos;

	/**
	 * Creates a sampler whose first window starts now.
	 * @param requests the request executor
	 * @param executors the request executor and any other executor that switches with it
	 * @param probe the scheduling-delay probe
	 * @param processors the processors available to the JVM
	 * @param now {@link System#nanoTime()} now
	 */
	WorkloadSampler(ThreadModelExecutor requests, List<ThreadModelExecutor> executors, SchedulingDelayProbe probe,
			int processors, long now) {
		this.requests = requests;
		this.executors = executors.stream().map(Totals::new).toList();
		this.probe = probe;
		this.processors = processors;
		this.lastNanos = now;
	}

	/**
	 * The figures of the window that ends now.
	 * @param now {@link System#nanoTime()} now
	 * @return the sample
	 */
	WorkloadSample sample(long now) {
		long windowNanos = Math.max(1, now - this.lastNanos);
		this.lastNanos = now;
		ExecutorStats requestStats = this.requests.stats();
		long completed = 0;
		int queued = 0;
		boolean poolExhausted = false;
		Duration threadWait = Duration.ZERO;
		long cpuNanos = 0;
		for (Totals totals : this.executors) {
			Totals.Delta delta = totals.advance();
			if (totals.executor == this.requests) {
				completed = delta.completed();
			}
			queued += delta.queued();
			poolExhausted |= delta.poolExhausted();
			threadWait = (delta.averageWait().compareTo(threadWait) > 0) ? delta.averageWait() : threadWait;
			cpuNanos += delta.cpuNanos();
		}
		double cpuShare = (double) cpuNanos / ((double) windowNanos * this.processors);
		SchedulingDelayProbe.Delays delays = this.probe.drain(now);
		return new WorkloadSample(requestStats.model(), Duration.ofNanos(windowNanos), completed, queued,
				poolExhausted, threadWait, cpuShare, delays.average(), delays.longest());
	}

	/**
	 * One executor's totals at the end of the previous window.
	 */
	private static final class Totals {

		private final ThreadModelExecutor executor;

		private ExecutorStats stats;

		private Duration cpu;

		Totals(ThreadModelExecutor executor) {
			this.executor = executor;
			executor.recorder().measureCpuTime();
			this.stats = executor.stats();
			this.cpu = executor.recorder().platformCpuTime();
		}

		Delta advance() {
			ExecutorStats stats = this.executor.stats();
			Duration cpu = this.executor.recorder().platformCpuTime();
			long started = stats.started() - this.stats.started();
			Duration waited = stats.totalWait().minus(this.stats.totalWait());
			boolean poolExhausted = stats.maxPoolSize() != null && stats.running() >= stats.maxPoolSize()
					&& stats.queued() > 0;
			Delta delta = new Delta(stats.completed() - this.stats.completed(), stats.queued(), poolExhausted,
					(started > 0) ? waited.dividedBy(started) : Duration.ZERO, cpu.minus(this.cpu).toNanos());
			this.stats = stats;
			this.cpu = cpu;
			return delta;
		}

		record Delta(long completed, int queued, boolean poolExhausted, Duration averageWait, long cpuNanos) {

		}

	}

}
