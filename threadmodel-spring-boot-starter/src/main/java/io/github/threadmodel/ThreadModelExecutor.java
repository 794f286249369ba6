package io.github.threadmodel;

import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

import org.springframework.core.task.AsyncTaskExecutor;

/**
 * The executor a web server hands request work to (or that runs application tasks). It
 * runs each task on the threads of its {@link ThreadModel} and measures what it does:
 * queue depth, running tasks, and the time tasks wait for a thread.
 * <p>
 * Servers hold this one object for their whole life; the threads behind it are a
 * separate {@link ModelThreads} so that the model can be replaced while the server runs.
 */
public final class ThreadModelExecutor implements AsyncTaskExecutor, AutoCloseable {

	private final String threadNamePrefix;

	private final ExecutorSettings settings;

	private final ModelThreads threads;

	private final AtomicInteger queued = new AtomicInteger();

	private final AtomicInteger peakQueued = new AtomicInteger();

	private final AtomicInteger running = new AtomicInteger();

	private final LongAdder submitted = new LongAdder();

	private final LongAdder started = new LongAdder();

	private final LongAdder completed = new LongAdder();

	private final LongAdder rejected = new LongAdder();

	private final LongAdder totalWaitNanos = new LongAdder();

	private final LongAccumulator maxWaitNanos = new LongAccumulator(Math::max, 0);

	/**
	 * Creates an executor and starts the threads of its model.
	 * @param threadNamePrefix the start of each thread's name, followed by the model and a
	 * number (for example {@code request-} gives {@code request-platform-1})
	 * @param settings the model and its limits
	 */
	public ThreadModelExecutor(String threadNamePrefix, ExecutorSettings settings) {
		this.threadNamePrefix = threadNamePrefix;
		this.settings = settings;
		this.threads = ModelThreads.create(settings, threadNamePrefix);
	}

	@Override
	public void execute(Runnable task) {
		long submittedAt = System.nanoTime();
		this.submitted.increment();
		this.peakQueued.accumulateAndGet(this.queued.incrementAndGet(), Math::max);
		try {
			this.threads.execute(() -> run(task, submittedAt));
		}
		catch (RejectedExecutionException ex) {
			this.queued.decrementAndGet();
			this.rejected.increment();
			throw ex;
		}
	}

	private void run(Runnable task, long submittedAt) {
		long waited = System.nanoTime() - submittedAt;
		this.queued.decrementAndGet();
		this.running.incrementAndGet();
		this.started.increment();
		this.totalWaitNanos.add(waited);
		this.maxWaitNanos.accumulate(waited);
		try {
			task.run();
		}
		finally {
			this.running.decrementAndGet();
			this.completed.increment();
		}
	}

	/**
	 * The model the executor runs tasks on.
	 * @return the thread model
	 */
	public ThreadModel getModel() {
		return this.threads.model();
	}

	/**
	 * The model and limits the executor was created with.
	 * @return the settings
	 */
	public ExecutorSettings getSettings() {
		return this.settings;
	}

	/**
	 * The start of the names of the executor's threads.
	 * @return the thread name prefix
	 */
	public String getThreadNamePrefix() {
		return this.threadNamePrefix;
	}

	/**
	 * What the executor is doing now and has done so far.
	 * @return a snapshot of its figures
	 */
	public ExecutorStats stats() {
		ModelThreads threads = this.threads;
		return new ExecutorStats(threads.model(), this.running.get(), this.queued.get(), this.peakQueued.get(),
				this.submitted.sum(), this.started.sum(), this.completed.sum(), this.rejected.sum(),
				Duration.ofNanos(this.totalWaitNanos.sum()), Duration.ofNanos(this.maxWaitNanos.get()),
				threads.poolSize(), threads.maxPoolSize(), threads.maxConcurrency());
	}

	/**
	 * Refuses new tasks and lets the threads end once the tasks already accepted are done.
	 */
	@Override
	public void close() {
		this.threads.shutdown();
	}

	@Override
	public String toString() {
		return "ThreadModelExecutor[" + this.threadNamePrefix + this.threads.model().id() + "]";
	}

}
