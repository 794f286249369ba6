package io.github.threadmodel.executor;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The turns of {@link VirtualThreads} with a concurrency limit: a fixed number, or an
 * {@link AdaptiveLimiter}. Both count the tasks holding a permit and call the threads back
 * when one is given back; they differ in their limit and in what a finished task tells
 * them.
 */
abstract sealed class Permits permits Permits.Fixed, AdaptiveLimiter {

	private final AtomicInteger inFlight = new AtomicInteger();

	private volatile Runnable dispatch = () -> {
	};

	/**
	 * Takes a permit if the limit allows one more task to run.
	 * @return the tasks running with this one, or 0 when no permit is free
	 */
	int tryAcquire() {
		while (true) {
			int current = this.inFlight.get();
			if (current >= limit()) {
				return 0;
			}
			if (this.inFlight.compareAndSet(current, current + 1)) {
				return current + 1;
			}
		}
	}

	/**
	 * Gives a permit back when its task ends, then lets the threads start a waiting task.
	 * @param runNanos how long the task ran, in nanoseconds
	 */
	final void release(long runNanos) {
		this.inFlight.decrementAndGet();
		ended(runNanos);
		this.dispatch.run();
	}

	/**
	 * Learns from a task that ended; nothing by default.
	 * @param runNanos how long the task ran, in nanoseconds
	 */
	void ended(long runNanos) {
	}

	/**
	 * Gives back a permit that started no task.
	 */
	final void giveBack() {
		this.inFlight.decrementAndGet();
	}

	/**
	 * Says whom to call after each release: the threads whose waiting tasks the freed
	 * permit may start (the newest, after a switch).
	 * @param dispatch starts waiting tasks while permits last
	 */
	final void attach(Runnable dispatch) {
		this.dispatch = dispatch;
	}

	/**
	 * Lets the threads start waiting tasks, when the limit may have grown.
	 */
	final void dispatch() {
		this.dispatch.run();
	}

	/**
	 * The limit now.
	 * @return the most tasks that may run at once
	 */
	abstract int limit();

	/**
	 * Tasks holding a permit now.
	 * @return the count
	 */
	final int inFlight() {
		return this.inFlight.get();
	}

	/**
	 * A fixed number of permits ({@code app.threads.virtual.max-concurrency}), owned by one
	 * {@link VirtualThreads}.
	 */
	static final class Fixed extends Permits {

		private final int limit;

		Fixed(int limit) {
			this.limit = limit;
		}

		@Override
		int limit() {
			return this.limit;
		}

	}

}
