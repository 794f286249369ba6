package io.github.threadmodel.executor;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A count of tasks that rises and falls, and that a thread can wait on until it is zero:
 * the task that takes it to zero signals the waiters, so that a shutdown waits without
 * polling. Written by hand because a {@link java.util.concurrent.CountDownLatch} or a
 * {@link java.util.concurrent.Phaser} ends once it reaches zero, while this count rises
 * again with each new task.
 */
final class TaskCount {

	private final AtomicInteger count = new AtomicInteger();

	private final ReentrantLock lock = new ReentrantLock();

	private final Condition zero = this.lock.newCondition();

	/** Threads in {@link #awaitZero}: without any, the task that takes the count to zero takes no lock. */
	private final AtomicInteger waiters = new AtomicInteger();

	int increment() {
		return this.count.incrementAndGet();
	}

	void decrement() {
		// the count falls before the waiters are read, and a waiter counts itself before it
		// reads the count: one of the two always sees the other
		if (this.count.decrementAndGet() <= 0 && this.waiters.get() > 0) {
			this.lock.lock();
			try {
				this.zero.signalAll();
			}
			finally {
				this.lock.unlock();
			}
		}
	}

	int get() {
		return this.count.get();
	}

	/**
	 * Waits until the count is zero, at most the given time.
	 * @param timeout the longest wait
	 * @throws InterruptedException if the thread is interrupted while it waits
	 */
	void awaitZero(Duration timeout) throws InterruptedException {
		long nanos = timeout.toNanos();
		this.waiters.incrementAndGet();
		this.lock.lock();
		try {
			while (this.count.get() > 0 && nanos > 0) {
				nanos = this.zero.awaitNanos(nanos);
			}
		}
		finally {
			this.lock.unlock();
			this.waiters.decrementAndGet();
		}
	}

}
