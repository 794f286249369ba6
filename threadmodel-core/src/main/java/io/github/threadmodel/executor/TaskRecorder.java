package io.github.threadmodel.executor;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the tasks of one {@link ThreadModelExecutor} do, counted as it happens and kept
 * across switches: tasks running, tasks waiting behind the model's limit (the queue
 * depth) and how long they waited, how long virtual threads waited for a carrier thread,
 * and the tasks handed over, started, completed and refused. The meters and the actuator
 * endpoint read it live ({@link ThreadModelExecutor#recorder()}).
 * <p>
 * A task counts in the queue depth from the moment the threads say it waits behind the
 * limit until it gets a thread (or is refused). A task the threads take at once never
 * counts, however long its thread then takes to run it: waiting for a carrier is the CPU
 * being short, not a queue.
 * @since 0.1.0
 */
public final class TaskRecorder {

	private final TaskCount queued = new TaskCount();

	private final AtomicInteger peakQueued = new AtomicInteger();

	private final AtomicInteger running = new AtomicInteger();

	private final AtomicInteger peakRunning = new AtomicInteger();

	private final LongAdder submitted = new LongAdder();

	private final LongAdder started = new LongAdder();

	private final LongAdder completed = new LongAdder();

	private final LongAdder rejected = new LongAdder();

	private final LongAdder timedOut = new LongAdder();

	/** From hand-over to start, of every task that got a thread. */
	private final Waits startWait = new Waits();

	private final Waits queueWait = new Waits();

	private final Waits carrierWait = new Waits();

	private final PlatformCpuTime cpuTime = new PlatformCpuTime();

	/** Tasks accepted and not finished yet: waiting, running, or between the two. */
	private final TaskCount unfinished = new TaskCount();

	TaskRecorder() {
	}

	void countSubmitted() {
		this.submitted.increment();
		this.unfinished.increment();
	}

	/**
	 * Counts a task in the queue depth.
	 * @return the depth with it
	 */
	int enterQueue() {
		return this.queued.increment();
	}

	void peakQueued(int depth) {
		this.peakQueued.accumulateAndGet(depth, Math::max);
	}

	void leaveQueue() {
		this.queued.decrement();
	}

	void countQueueWait(long nanos) {
		this.queueWait.add(nanos);
	}

	void countRejected(boolean timedOut) {
		this.rejected.increment();
		if (timedOut) {
			this.timedOut.increment();
		}
		this.unfinished.decrement();
	}

	/** A task that ended without running on a thread of the executor, counted started and completed. */
	void countLeft() {
		this.started.increment();
		this.completed.increment();
		this.unfinished.decrement();
	}

	/**
	 * Runs a task on the current thread, counted running meanwhile.
	 * @param task the task
	 * @param submittedAt when it was handed over ({@link System#nanoTime()})
	 * @param startedOnVirtualThreadAt when it got a virtual thread of its own, or 0
	 */
	void run(Runnable task, long submittedAt, long startedOnVirtualThreadAt) {
		long now = System.nanoTime();
		long waited = now - submittedAt;
		if (startedOnVirtualThreadAt != 0) {
			this.carrierWait.add(now - startedOnVirtualThreadAt);
		}
		this.peakRunning.accumulateAndGet(this.running.incrementAndGet(), Math::max);
		this.started.increment();
		this.startWait.add(waited);
		long cpuBefore = this.cpuTime.taskStarts();
		try {
			task.run();
		}
		finally {
			this.cpuTime.taskEnded(cpuBefore);
			this.running.decrementAndGet();
			this.completed.increment();
			this.unfinished.decrement();
		}
	}

	/**
	 * Starts summing the CPU time of the tasks that run on platform threads, for
	 * {@link #platformCpuTime()}. Off by default (it costs two thread-CPU-time reads per
	 * task): only {@code app.threads.model=auto} reads it.
	 */
	public void measureCpuTime() {
		this.cpuTime.measure();
	}

	/** Waits, at most the given time, until no task waits behind the limit. */
	void awaitQueueEmpty(Duration timeout) throws InterruptedException {
		this.queued.awaitZero(timeout);
	}

	/** Waits, at most the given time, until every task accepted has finished or been refused. */
	void awaitFinished(Duration timeout) throws InterruptedException {
		this.unfinished.awaitZero(timeout);
	}

	/**
	 * Tasks running now.
	 * @return the count
	 */
	public int running() {
		return this.running.get();
	}

	/**
	 * The most tasks seen running at once (refused tasks are not counted).
	 * @return the count
	 */
	public int peakRunning() {
		return this.peakRunning.get();
	}

	/**
	 * Tasks waiting behind the model's limit now (the queue depth).
	 * @return the count
	 */
	public int queued() {
		return this.queued.get();
	}

	/**
	 * The highest queue depth seen.
	 * @return the count
	 */
	public int peakQueued() {
		return this.peakQueued.get();
	}

	/**
	 * Tasks handed to the executor.
	 * @return the count
	 */
	public long submitted() {
		return this.submitted.sum();
	}

	/**
	 * Tasks that got a thread.
	 * @return the count
	 */
	public long started() {
		return this.started.sum();
	}

	/**
	 * Tasks that ran to the end, normally or not.
	 * @return the count
	 */
	public long completed() {
		return this.completed.sum();
	}

	/**
	 * Tasks refused: queue full, waited longer than the queue timeout or the longest idle
	 * wait, or executor closed.
	 * @return the count
	 */
	public long rejected() {
		return this.rejected.sum();
	}

	/**
	 * Tasks refused because they waited longer than the queue timeout or the longest idle
	 * wait ({@link ThreadModelExecutor#setMaxIdleWait}); part of {@link #rejected()}.
	 * @return the count
	 */
	public long timedOut() {
		return this.timedOut.sum();
	}

	/**
	 * Time spent by started tasks from their hand-over to their start, summed.
	 * @return the total
	 */
	public Duration totalWait() {
		return this.startWait.total();
	}

	/**
	 * The longest time a started task took from its hand-over to its start.
	 * @return the longest
	 */
	public Duration maxWait() {
		return this.startWait.max();
	}

	/**
	 * The tasks that waited behind the limit and then got a thread, and how long.
	 * @return the waits
	 */
	public Waits queueWait() {
		return this.queueWait;
	}

	/**
	 * The tasks that got a virtual thread of their own, and how long it waited for a
	 * carrier thread.
	 * @return the waits
	 */
	public Waits carrierWait() {
		return this.carrierWait;
	}

	/**
	 * The CPU time used by tasks that ran on platform threads since
	 * {@link #measureCpuTime()}, summed. Compared with the wall-clock time that passed, it
	 * tells whether busy platform threads compute or wait. Virtual threads do not report
	 * their CPU time, so tasks on them add nothing.
	 * @return the CPU time so far
	 */
	public Duration platformCpuTime() {
		return this.cpuTime.total();
	}

	/**
	 * The figures now, as one value.
	 */
	ExecutorStats snapshot(ThreadModel model, Integer poolSize, Integer maxPoolSize, Integer maxConcurrency) {
		return new ExecutorStats(model, running(), queued(), peakQueued(), submitted(), started(), completed(),
				rejected(), totalWait(), maxWait(), poolSize, maxPoolSize, maxConcurrency, peakRunning(), timedOut(),
				this.queueWait.snapshot(), this.carrierWait.snapshot());
	}

	/**
	 * Waits of one kind, summed as tasks report them: how many, how long in all, the
	 * longest.
	 */
	public static final class Waits {

		private final LongAdder count = new LongAdder();

		private final LongAdder totalNanos = new LongAdder();

		private final LongAccumulator maxNanos = new LongAccumulator(Math::max, 0);

		Waits() {
		}

		void add(long nanos) {
			this.count.increment();
			this.totalNanos.add(nanos);
			this.maxNanos.accumulate(nanos);
		}

		/**
		 * How many tasks waited.
		 * @return the count
		 */
		public long count() {
			return this.count.sum();
		}

		/**
		 * Their waits, summed.
		 * @return the total
		 */
		public Duration total() {
			return Duration.ofNanos(this.totalNanos.sum());
		}

		/**
		 * The longest wait.
		 * @return the longest
		 */
		public Duration max() {
			return Duration.ofNanos(this.maxNanos.get());
		}

		/**
		 * The waits so far, as one value.
		 * @return the count, total and longest now
		 */
		public ExecutorStats.Wait snapshot() {
			return new ExecutorStats.Wait(count(), total(), max());
		}

	}

}
