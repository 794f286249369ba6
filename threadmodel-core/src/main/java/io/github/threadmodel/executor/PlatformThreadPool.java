package io.github.threadmodel.executor;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A pool of platform threads that, like Tomcat's own pool, starts new threads up to its
 * maximum before it queues tasks. The JDK's {@link ThreadPoolExecutor} does the opposite
 * (it only grows past its core size once its queue is full), which with an unbounded
 * queue would never use more than the minimum number of threads. Tomcat's pool cannot be
 * reused because it is Tomcat-only, so this is the one piece of pooling written here.
 */
final class PlatformThreadPool extends ThreadPoolExecutor implements ModelThreads {

	/** Tasks handed to the pool and not finished yet: more than the pool size means none is idle. */
	private final AtomicInteger outstanding = new AtomicInteger();

	PlatformThreadPool(ExecutorSettings.PlatformPool settings, String threadNamePrefix) {
		super(settings.minThreads(), settings.maxThreads(), settings.keepAlive().toNanos(), TimeUnit.NANOSECONDS,
				new GrowFirstQueue(settings.queueCapacity()),
				threadFactory(threadNamePrefix), PlatformThreadPool::queueOrReject);
		((GrowFirstQueue) getQueue()).pool = this;
		prestartAllCoreThreads();
	}

	/**
	 * Daemon threads with the starter's class loader as their context class loader: a pool
	 * created by a switch asked for from a request thread must not hold on to the class
	 * loader of the web application that thread was serving.
	 */
	private static ThreadFactory threadFactory(String threadNamePrefix) {
		ThreadFactory threads = Thread.ofPlatform().name(threadNamePrefix, 1).daemon(true).factory();
		ClassLoader classLoader = PlatformThreadPool.class.getClassLoader();
		return (task) -> {
			Thread thread = threads.newThread(task);
			thread.setContextClassLoader(classLoader);
			return thread;
		};
	}

	@Override
	public void execute(Runnable task) {
		this.outstanding.incrementAndGet();
		try {
			super.execute(task);
		}
		catch (RejectedExecutionException ex) {
			this.outstanding.decrementAndGet();
			throw ex;
		}
	}

	@Override
	protected void afterExecute(Runnable task, Throwable failure) {
		this.outstanding.decrementAndGet();
	}

	@Override
	public ThreadModel model() {
		return ThreadModel.PLATFORM;
	}

	@Override
	public Integer poolSize() {
		return getPoolSize();
	}

	/**
	 * The pool's limit, or {@code null} for a pool without one (an application task pool
	 * with no task limit), as virtual threads have none.
	 */
	@Override
	public Integer maxPoolSize() {
		return (getMaximumPoolSize() != Integer.MAX_VALUE) ? getMaximumPoolSize() : null;
	}

	@Override
	public Integer maxConcurrency() {
		return null;
	}

	@Override
	public List<Runnable> drainWaiting() {
		List<Runnable> waiting = new ArrayList<>();
		getQueue().drainTo(waiting);
		this.outstanding.addAndGet(-waiting.size());
		// A worker that saw a task in the queue after shutdown now waits for one forever;
		// purge() lets the pool wake its idle workers, which then see the empty queue and end.
		purge();
		return waiting;
	}

	@Override
	public boolean withdraw(Runnable task) {
		if (!remove(task)) {
			return false;
		}
		this.outstanding.decrementAndGet();
		return true;
	}

	/**
	 * Called when the pool could not start another thread for a task that the queue refused
	 * so that the pool would grow: the pool is at its maximum, so the task waits in the
	 * queue if there is room.
	 */
	private static void queueOrReject(Runnable task, ThreadPoolExecutor executor) {
		if (executor.isShutdown() || !((GrowFirstQueue) executor.getQueue()).enqueue(task)) {
			throw new RejectedExecutionException(executor.isShutdown() ? "Thread pool is shut down"
					: "All " + executor.getMaximumPoolSize() + " threads are busy and the queue is full");
		}
		ModelThreads.waitsBehindLimit(task);
	}

	private static final class GrowFirstQueue extends LinkedBlockingQueue<Runnable> {

		private final boolean mayQueue;

		private PlatformThreadPool pool;

		GrowFirstQueue(Integer capacity) {
			super((capacity != null && capacity > 0) ? capacity : Integer.MAX_VALUE);
			this.mayQueue = capacity == null || capacity > 0;
		}

		// getPoolSize() takes the pool's main lock on every hand-off; ExecutorHandOffBenchmark shows it
		// no slower than Tomcat's own pool (docs/results/2026-11-22-platform-vs-virtual-boot35.md)
		@Override
		public boolean offer(Runnable task) {
			int poolSize = this.pool.getPoolSize();
			boolean allBusy = this.pool.outstanding.get() > poolSize;
			if (allBusy && poolSize < this.pool.getMaximumPoolSize()) {
				return false; // makes the pool start a thread
			}
			if (!allBusy) {
				// an idle thread takes it at once: the pool's only way to hand it over, even
				// with queue-capacity 0
				return super.offer(task);
			}
			if (!enqueue(task)) {
				return false;
			}
			ModelThreads.waitsBehindLimit(task);
			return true;
		}

		boolean enqueue(Runnable task) {
			return this.mayQueue && super.offer(task);
		}

	}

}
