package io.github.threadmodel.executor;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.concurrent.atomic.LongAdder;

/**
 * The CPU time of the tasks that run on platform threads, summed once switched on (it
 * costs two thread-CPU-time reads per task). Virtual threads do not report their CPU
 * time, so tasks on them add nothing.
 */
final class PlatformCpuTime {

	private static final ThreadMXBean threadBean = ManagementFactory.getThreadMXBean();

	/**
	 * Whether the JVM reports each platform thread's CPU time (it does not for virtual
	 * threads, where {@code getCurrentThreadCpuTime} answers -1).
	 */
	private static final boolean supported = threadBean.isCurrentThreadCpuTimeSupported();

	private final LongAdder nanos = new LongAdder();

	private volatile boolean measuring;

	void measure() {
		this.measuring = true;
	}

	/**
	 * The current thread's CPU time before a task.
	 * @return the time to hand to {@link #taskEnded}, or -1 when not measured
	 */
	long taskStarts() {
		return this.measuring ? current() : -1;
	}

	/**
	 * Adds the CPU time the task used since {@link #taskStarts}.
	 * @param before what {@link #taskStarts} answered
	 */
	void taskEnded(long before) {
		if (before >= 0) {
			this.nanos.add(Math.max(0, current() - before));
		}
	}

	Duration total() {
		return Duration.ofNanos(this.nanos.sum());
	}

	/**
	 * The CPU time of the current thread when it is a platform thread, otherwise -1.
	 */
	private static long current() {
		return (supported && !Thread.currentThread().isVirtual()) ? threadBean.getCurrentThreadCpuTime() : -1;
	}

}
