package io.github.threadmodel.executor;

import java.time.Duration;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * Waits of one kind, summed as tasks report them: how many, how long in all, the
 * longest.
 */
public final class WaitTotals {

	private final LongAdder count = new LongAdder();

	private final LongAdder totalNanos = new LongAdder();

	private final LongAccumulator maxNanos = new LongAccumulator(Math::max, 0);

	WaitTotals() {
	}

	void add(long nanos) {
		this.count.increment();
		this.totalNanos.add(nanos);
		this.maxNanos.accumulate(nanos);
	}

	/**
	 * How many tasks waited.
	 * @return the count
	 */
	public long count() {
		return this.count.sum();
	}

	/**
	 * Their waits, summed.
	 * @return the total
	 */
	public Duration total() {
		return Duration.ofNanos(this.totalNanos.sum());
	}

	/**
	 * The longest wait.
	 * @return the longest
	 */
	public Duration max() {
		return Duration.ofNanos(this.maxNanos.get());
	}

	/**
	 * The waits so far, as one value.
	 * @return the count, total and longest now
	 */
	public ExecutorStats.Wait snapshot() {
		return new ExecutorStats.Wait(count(), total(), max());
	}

}
