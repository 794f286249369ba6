package io.github.threadmodel.executor;

import java.time.Duration;

/**
 * Runs the tasks an executor with {@link ExecutorSettings.OverloadProtection} refused:
 * each at once on a virtual thread of its own, outside the limits, marked with its
 * {@link Refusal}. They only answer that they were refused, so they end soon; a shutdown
 * waits for them.
 */
final class RefusedTasks {

	/** The longest {@link #awaitDone} waits: refused tasks only answer that they were refused. */
	static final Duration GRACE = Duration.ofSeconds(5);

	private final String threadName;

	private final TaskCount running = new TaskCount();

	RefusedTasks(String threadName) {
		this.threadName = threadName;
	}

	void run(Refusal refusal, Runnable task) {
		this.running.increment();
		Thread.ofVirtual().name(this.threadName).start(() -> {
			try {
				refusal.run(task);
			}
			finally {
				this.running.decrement();
			}
		});
	}

	/**
	 * Waits until no refused task runs, at most {@link #GRACE}.
	 * @throws InterruptedException if the thread is interrupted while it waits
	 */
	void awaitDone() throws InterruptedException {
		this.running.awaitZero(GRACE);
	}

}
