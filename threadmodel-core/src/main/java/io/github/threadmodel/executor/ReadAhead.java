package io.github.threadmodel.executor;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * The requests a {@link ThreadModelExecutor} reads ahead of their turn (see
 * {@link ThreadModelExecutor#readRequestsAhead}): at most a limit at once, none while the
 * heap is under pressure, each on a virtual thread of its own.
 */
final class ReadAhead {

	private final String threadName;

	private final BooleanSupplier heapPressured;

	/** The most requests read ahead at once; 0 reads none. */
	private volatile int limit;

	/** Tasks started ahead of their turn whose thread has not ended yet. */
	private final AtomicInteger reading = new AtomicInteger();

	ReadAhead(String threadName, BooleanSupplier heapPressured) {
		this.threadName = threadName;
		this.heapPressured = heapPressured;
	}

	void limit(int limit) {
		this.limit = limit;
	}

	/**
	 * Takes a place among the requests read ahead.
	 * @return whether there was one: a request read ahead takes heap (the server's buffers
	 * for it, its thread's stack) while it waits
	 */
	boolean enter() {
		if (this.heapPressured.getAsBoolean()) {
			return false;
		}
		if (this.reading.incrementAndGet() > this.limit) {
			this.reading.decrementAndGet();
			return false;
		}
		return true;
	}

	/** Gives back a place taken by {@link #enter} that is not used. */
	void leave() {
		this.reading.decrementAndGet();
	}

	/** Starts the task on a thread of its own with its turn; its place is given back when it ends. */
	void start(ReadAheadTurn turn, Runnable task) {
		Thread.ofVirtual().name(this.threadName).start(() -> {
			try {
				turn.readAhead(task);
			}
			finally {
				leave();
			}
		});
	}

}
