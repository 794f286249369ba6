package io.github.threadmodel;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One new virtual thread per task. With a concurrency limit, tasks beyond it wait in a
 * queue, in arrival order, without holding a thread, and start as running tasks finish.
 */
final class VirtualThreads implements ModelThreads {

	private final ThreadFactory threadFactory;

	private final Integer maxConcurrency;

	private final Queue<Runnable> waiting = new ConcurrentLinkedQueue<>();

	private final AtomicInteger permits;

	private volatile boolean shutdown;

	VirtualThreads(Integer maxConcurrency, String threadNamePrefix) {
		this.threadFactory = Thread.ofVirtual().name(threadNamePrefix, 1).factory();
		this.maxConcurrency = maxConcurrency;
		this.permits = new AtomicInteger((maxConcurrency != null) ? maxConcurrency : 0);
	}

	@Override
	public void execute(Runnable task) {
		if (this.shutdown) {
			throw new RejectedExecutionException("Virtual thread executor is shut down");
		}
		if (this.maxConcurrency == null) {
			start(task);
			return;
		}
		this.waiting.add(task);
		dispatch();
	}

	/**
	 * Starts waiting tasks while permits last. Called after every arrival and every
	 * completion, so a task never waits while a permit is free.
	 */
	private void dispatch() {
		while (!this.waiting.isEmpty()) {
			int available = this.permits.get();
			if (available == 0) {
				return;
			}
			if (!this.permits.compareAndSet(available, available - 1)) {
				continue;
			}
			Runnable next = this.waiting.poll();
			if (next == null) {
				this.permits.incrementAndGet();
				continue;
			}
			start(() -> {
				try {
					next.run();
				}
				finally {
					this.permits.incrementAndGet();
					dispatch();
				}
			});
		}
	}

	private void start(Runnable task) {
		this.threadFactory.newThread(task).start();
	}

	@Override
	public ThreadModel model() {
		return ThreadModel.VIRTUAL;
	}

	@Override
	public Integer poolSize() {
		return null;
	}

	@Override
	public Integer maxPoolSize() {
		return null;
	}

	@Override
	public Integer maxConcurrency() {
		return this.maxConcurrency;
	}

	@Override
	public void shutdown() {
		this.shutdown = true;
	}

	@Override
	public List<Runnable> drainWaiting() {
		List<Runnable> waiting = new ArrayList<>();
		for (Runnable task = this.waiting.poll(); task != null; task = this.waiting.poll()) {
			waiting.add(task);
		}
		return waiting;
	}

}
