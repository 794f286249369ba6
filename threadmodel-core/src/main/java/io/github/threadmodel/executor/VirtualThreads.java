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
import java.util.function.Consumer;

/**
 * One new virtual thread per task. With a concurrency limit (fixed, or an
 * {@link AdaptiveLimiter} that moves), tasks beyond it wait in a queue, in arrival order,
 * without holding a thread, and start as running tasks finish. With a queue timeout as
 * well, a task still waiting when it expires leaves the queue and goes to the timeout
 * handler instead.
 */
final class VirtualThreads implements ModelThreads {

	private final ThreadFactory threadFactory;

	/** The limit, or {@code null} for none. */
	private final Permits permits;

	private final Queue<Waiting> waiting = new ConcurrentLinkedQueue<>();

	/** Runs each expiry after the timeout, or {@code null} when tasks wait without limit. */
	private final Executor expiries;

	private final Consumer<Runnable> timedOut;

	private volatile boolean shutdown;

	/**
	 * @param permits the concurrency limit, or {@code null} for none
	 * @param queueTimeout the longest a task waits for a permit, or {@code null} for no limit
	 * @param timedOut takes each task that waited longer than the timeout
	 * @param threadNamePrefix the start of each thread's name
	 */
	VirtualThreads(Permits permits, Duration queueTimeout, Consumer<Runnable> timedOut, String threadNamePrefix) {
		this.threadFactory = Thread.ofVirtual().name(threadNamePrefix, 1).factory();
		this.permits = permits;
		if (permits != null) {
			// An adaptive limit outlives a switch: the permits that tasks of the threads it
			// replaced give back start this one's waiting tasks.
			permits.attach(this::dispatch);
		}
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
		if (this.permits == null) {
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
			if (this.permits.tryAcquire() == 0) {
				return;
			}
			Waiting next = this.waiting.poll();
			if (next == null || !next.take()) {
				this.permits.giveBack(); // none left, or it expired meanwhile
				continue;
			}
			ModelThreads.startsOnVirtualThread(next.task);
			start(() -> {
				long startedAt = System.nanoTime();
				try {
					next.task.run();
				}
				finally {
					this.permits.release(System.nanoTime() - startedAt);
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
		return (this.permits != null) ? this.permits.limit() : null;
	}

	@Override
	public ExecutorStats.Admission admission() {
		return ExecutorStats.Admission.of(this.permits);
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

	@Override
	public boolean withdraw(Runnable task) {
		for (Waiting entry : this.waiting) {
			if (entry.task == task) {
				if (!entry.take()) {
					return false;
				}
				this.waiting.remove(entry);
				return true;
			}
		}
		return false;
	}

	/**
	 * A task in the queue. Whoever takes it first runs it: a permit, the expiry, a
	 * withdrawal, or a switch draining the queue.
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
