package io.github.threadmodel.executor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * One new virtual thread per task. With a concurrency limit, tasks beyond it wait in a
 * queue, in arrival order, without holding a thread, and start as running tasks finish.
 * With a queue timeout as well, a task still waiting when it expires leaves the queue and
 * goes to the timeout handler instead.
 */
final class VirtualThreads implements ModelThreads {

	private final ThreadFactory threadFactory;

	private final Integer maxConcurrency;

	private final Queue<Waiting> waiting = new ConcurrentLinkedQueue<>();

	private final AtomicInteger permits;

	/** Runs each expiry after the timeout, or {@code null} when tasks wait without limit. */
	private final Executor expiries;

	private final Consumer<Runnable> timedOut;

	private volatile boolean shutdown;

	/**
	 * @param maxConcurrency the concurrency limit, or {@code null} for none
	 * @param queueTimeout the longest a task waits for a permit, or {@code null} for no limit
	 * @param timedOut takes each task that waited longer than the timeout
	 * @param threadNamePrefix the start of each thread's name
	 */
	VirtualThreads(Integer maxConcurrency, Duration queueTimeout, Consumer<Runnable> timedOut,
			String threadNamePrefix) {
		this.threadFactory = Thread.ofVirtual().name(threadNamePrefix, 1).factory();
		this.maxConcurrency = maxConcurrency;
		this.permits = new AtomicInteger((maxConcurrency != null) ? maxConcurrency : 0);
		// The JDK's shared delay scheduler (one daemon thread) instead of a scheduler of our
		// own, which would need a life cycle across switches. An expiry of a task that
		// started in time finds it taken and does nothing.
		this.expiries = (queueTimeout != null)
				? CompletableFuture.delayedExecutor(queueTimeout.toNanos(), TimeUnit.NANOSECONDS, Runnable::run) : null;
		this.timedOut = timedOut;
	}

	@Override
	public void execute(Runnable task) {
		submit(task, this.expiries != null);
	}

	@Override
	public void executeHandedOver(Runnable task) {
		submit(task, false);
	}

	private void submit(Runnable task, boolean mayTimeOut) {
		if (this.shutdown) {
			throw new RejectedExecutionException("Virtual thread executor is shut down");
		}
		if (this.maxConcurrency == null) {
			ModelThreads.startsOnVirtualThread(task);
			start(task);
			return;
		}
		Waiting entry = new Waiting(task);
		this.waiting.add(entry);
		dispatch();
		if (!entry.isTaken()) {
			ModelThreads.waitsBehindLimit(task);
			if (mayTimeOut) {
				this.expiries.execute(() -> expire(entry));
			}
		}
	}

	private void expire(Waiting entry) {
		if (entry.take()) {
			this.waiting.remove(entry);
			this.timedOut.accept(entry.task);
		}
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
			Waiting next = this.waiting.poll();
			if (next == null || !next.take()) {
				this.permits.incrementAndGet(); // none left, or it expired meanwhile
				continue;
			}
			ModelThreads.startsOnVirtualThread(next.task);
			start(() -> {
				try {
					next.task.run();
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
		for (Waiting entry = this.waiting.poll(); entry != null; entry = this.waiting.poll()) {
			if (entry.take()) {
				waiting.add(entry.task);
			}
		}
		return waiting;
	}

	/**
	 * A task in the queue. Whoever takes it first runs it: a permit, the expiry, or a
	 * switch draining the queue.
	 */
	private static final class Waiting {

		private final Runnable task;

		private final AtomicBoolean taken = new AtomicBoolean();

		Waiting(Runnable task) {
			this.task = task;
		}

		boolean take() {
			return this.taken.compareAndSet(false, true);
		}

		boolean isTaken() {
			return this.taken.get();
		}

	}

}
