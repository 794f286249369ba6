package io.github.threadmodel.internal.auto;

import java.time.Duration;

/**
 * Measures how long a virtual thread waits for a carrier thread after it is started.
 * Virtual threads are not time-sliced: while CPU-bound tasks hold every carrier, new and
 * unparked virtual threads wait, and this delay grows from well under a millisecond to
 * tens or hundreds. It is measured with a probe because the JVM reports no CPU time for
 * virtual threads ({@code ThreadMXBean.getCurrentThreadCpuTime()} answers -1 on them), so
 * there is no per-request figure to read instead.
 * <p>
 * One probe runs at a time: while a probe still waits, {@link #launch()} starts none, and
 * {@link #drain(long)} counts the waiting probe's age so far, so that a starved probe
 * shows in the window it starves in.
 */
final class SchedulingDelayProbe {

	private static final long NONE = -1;

	private long pendingSince = NONE;

	private long totalNanos;

	private long count;

	private long longestNanos;

	/**
	 * Starts a probe virtual thread unless one is still waiting for a carrier.
	 */
	void launch() {
		long startedAt;
		synchronized (this) {
			if (this.pendingSince != NONE) {
				return;
			}
			startedAt = System.nanoTime();
			this.pendingSince = startedAt;
		}
		Thread.ofVirtual().name("threadmodel-auto-probe").start(() -> ran(startedAt, System.nanoTime()));
	}

	private synchronized void ran(long startedAt, long ranAt) {
		long delay = ranAt - startedAt;
		this.totalNanos += delay;
		this.longestNanos = Math.max(this.longestNanos, delay);
		this.count++;
		this.pendingSince = NONE;
	}

	/**
	 * How long the probe still waiting for a carrier has waited so far.
	 * @param now {@link System#nanoTime()} now
	 * @return its wait so far, zero when no probe waits
	 */
	synchronized Duration waiting(long now) {
		return (this.pendingSince != NONE) ? Duration.ofNanos(now - this.pendingSince) : Duration.ZERO;
	}

	/**
	 * The delays of the probes since the last call, counting a probe still waiting with its
	 * age so far, and starts over.
	 * @param now {@link System#nanoTime()} now
	 * @return the average and the longest delay, zero when no probe ran
	 */
	synchronized Delays drain(long now) {
		long total = this.totalNanos;
		long count = this.count;
		long longest = this.longestNanos;
		if (this.pendingSince != NONE) {
			total += now - this.pendingSince;
			longest = Math.max(longest, now - this.pendingSince);
			count++;
		}
		this.totalNanos = 0;
		this.count = 0;
		this.longestNanos = 0;
		return new Delays((count > 0) ? Duration.ofNanos(total / count) : Duration.ZERO, Duration.ofNanos(longest));
	}

	/**
	 * The probes' delays in a window.
	 *
	 * @param average the average delay
	 * @param longest the longest delay
	 */
	record Delays(Duration average, Duration longest) {

	}

}
