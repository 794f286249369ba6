package io.github.threadmodel.executor;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The turns of {@link VirtualThreads} with a concurrency limit: a fixed number, or an
 * {@link AdaptiveLimit}.
 */
sealed interface Permits permits Permits.Fixed, AdaptiveLimit {

	/**
	 * Takes a permit if the limit allows one more task to run.
	 * @return the tasks running with this one, or 0 when no permit is free
	 */
	int tryAcquire();

	/**
	 * Gives a permit back when its task ends, then lets the threads start a waiting task.
	 * @param startedAt when the task started ({@link System#nanoTime()})
	 * @param inFlight what {@link #tryAcquire()} answered for it
	 */
	void release(long startedAt, int inFlight);

	/**
	 * Gives back a permit that started no task.
	 */
	void giveBack();

	/**
	 * Says whom to call after each release: the threads whose waiting tasks the freed
	 * permit may start (the newest, after a switch).
	 * @param dispatch starts waiting tasks while permits last
	 */
	void attach(Runnable dispatch);

	/**
	 * The limit now.
	 * @return the most tasks that may run at once
	 */
	int limit();

	/**
	 * Tasks holding a permit now.
	 * @return the count
	 */
	int inFlight();

	/**
	 * A fixed number of permits ({@code app.threads.virtual.max-concurrency}), owned by one
	 * {@link VirtualThreads}.
	 */
	final class Fixed implements Permits {

		private final int limit;

		private final AtomicInteger inFlight = new AtomicInteger();

		private volatile Runnable dispatch = () -> {
		};

		Fixed(int limit) {
			this.limit = limit;
		}

		@Override
		public int tryAcquire() {
			return acquireBelow(this.inFlight, this.limit);
		}

		@Override
		public void release(long startedAt, int inFlight) {
			this.inFlight.decrementAndGet();
			this.dispatch.run();
		}

		@Override
		public void giveBack() {
			this.inFlight.decrementAndGet();
		}

		@Override
		public void attach(Runnable dispatch) {
			this.dispatch = dispatch;
		}

		@Override
		public int limit() {
			return this.limit;
		}

		@Override
		public int inFlight() {
			return this.inFlight.get();
		}

	}

	/**
	 * Counts one more task in flight unless that would pass the limit.
	 * @return the count with it, or 0 when the limit is reached
	 */
	static int acquireBelow(AtomicInteger inFlight, int limit) {
		while (true) {
			int current = inFlight.get();
			if (current >= limit) {
				return 0;
			}
			if (inFlight.compareAndSet(current, current + 1)) {
				return current + 1;
			}
		}
	}

}
