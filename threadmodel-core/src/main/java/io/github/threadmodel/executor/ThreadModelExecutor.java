package io.github.threadmodel.executor;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.UnaryOperator;

import org.springframework.core.task.AsyncTaskExecutor;
import org.springframework.core.task.TaskDecorator;
import org.springframework.core.task.TaskRejectedException;

/**
 * The executor a web server hands request work to (or that runs application tasks). It
 * runs each task on the threads of its {@link ThreadModel} and measures what it does:
 * running tasks, tasks waiting behind the model's limit (the queue depth) and how long
 * they waited, and how long virtual threads waited for a carrier thread. The two waits are
 * kept apart: a task with a virtual thread of its own is admitted, and waiting for a
 * carrier is the CPU being short, not a queue.
 * <p>
 * Servers hold this one object for their whole life; the threads behind it are a
 * separate {@link ModelThreads} that {@link #switchTo} replaces while the server runs.
 * <p>
 * A task beyond the limits is refused with a {@link RejectedExecutionException}, unless
 * the executor has {@link OverloadProtection}: then it runs at once outside the limits,
 * marked with its {@link Refusal}, so that the server can answer it instead of dropping it.
 * <p>
 * As an application task executor it may have a {@link TaskLimit} of its own, which holds
 * across switches, and a {@link TaskDecorator}, applied to each task where it is handed
 * over (so that, for example, the caller's tracing context follows it onto whatever
 * thread runs it, before and after a switch).
 */
public final class ThreadModelExecutor implements AsyncTaskExecutor, AutoCloseable {

	private final String threadNamePrefix;

	private static final int HISTORY_SIZE = 10;

	/**
	 * The longest {@link #finishQueued} waits for the tasks it refused to be done: they
	 * only answer that they were refused.
	 */
	static final Duration REFUSED_TASKS_GRACE = Duration.ofSeconds(5);

	private static final ThreadMXBean threadBean = ManagementFactory.getThreadMXBean();

	/**
	 * Whether the JVM reports each platform thread's CPU time (it does not for virtual
	 * threads, where {@code getCurrentThreadCpuTime} answers -1).
	 */
	private static final boolean threadCpuTimeSupported = threadBean.isCurrentThreadCpuTimeSupported();

	private volatile ExecutorSettings settings;

	private volatile ModelThreads threads;

	private final OverloadProtection overload;

	/** The turns of the {@link TaskLimit}, or {@code null} without one. */
	private final Semaphore turns;

	private final TaskLimit taskLimit;

	private volatile TaskDecorator taskDecorator;

	/** How long {@link #close()} waits for the accepted tasks to finish; zero: not at all. */
	private volatile Duration terminationTimeout = Duration.ZERO;

	/**
	 * The adaptive limit of the virtual model, kept across switches so that what it learnt
	 * and the tasks it counts in flight carry over; {@code null} without one.
	 */
	private volatile AdaptiveLimit adaptive;

	private final Function<AdaptiveAdmission, AdaptiveLimit> adaptiveLimits;

	private volatile boolean closed;

	private final Deque<ModelSwitch> history = new ArrayDeque<>();

	private final List<Consumer<ModelSwitch>> switchListeners = new CopyOnWriteArrayList<>();

	private final AtomicInteger queued = new AtomicInteger();

	private final AtomicInteger peakQueued = new AtomicInteger();

	private final AtomicInteger running = new AtomicInteger();

	/** Refused tasks that run now, outside the limits: they only answer, so they end soon. */
	private final AtomicInteger refusedRunning = new AtomicInteger();

	private final AtomicInteger peakRunning = new AtomicInteger();

	private final LongAdder submitted = new LongAdder();

	private final LongAdder started = new LongAdder();

	private final LongAdder completed = new LongAdder();

	private final LongAdder rejected = new LongAdder();

	private final LongAdder timedOut = new LongAdder();

	private final LongAdder totalWaitNanos = new LongAdder();

	private final LongAccumulator maxWaitNanos = new LongAccumulator(Math::max, 0);

	private final WaitTotals queueWait = new WaitTotals();

	private final WaitTotals carrierWait = new WaitTotals();

	private final LongAdder platformCpuNanos = new LongAdder();

	/** Off until {@link #measureCpuTime()}: it costs two thread-CPU-time reads per task. */
	private volatile boolean measuringCpuTime;

	/** The most requests read ahead at once ({@link #readRequestsAhead}); 0 reads none. */
	private volatile int readAheadLimit;

	/** Tasks started ahead of their turn whose thread has not ended yet. */
	private final AtomicInteger readingAhead = new AtomicInteger();

	/**
	 * Creates an executor and starts the threads of its model.
	 * @param threadNamePrefix the start of each thread's name, followed by the model and a
	 * number (for example {@code request-} gives {@code request-platform-1})
	 * @param settings the model and its limits
	 */
	public ThreadModelExecutor(String threadNamePrefix, ExecutorSettings settings) {
		this(threadNamePrefix, settings, null, null, AdaptiveLimit::new);
	}

	/**
	 * Creates an executor and starts the threads of its model.
	 * @param threadNamePrefix the start of each thread's name, followed by the model and a
	 * number (for example {@code request-} gives {@code request-platform-1})
	 * @param settings the model and its limits
	 * @param overload how to treat tasks beyond the limits, or {@code null} to refuse them
	 * with a {@link RejectedExecutionException}
	 */
	public ThreadModelExecutor(String threadNamePrefix, ExecutorSettings settings, OverloadProtection overload) {
		this(threadNamePrefix, settings, overload, null, AdaptiveLimit::new);
	}

	/**
	 * Creates an application task executor and starts the threads of its model.
	 * @param threadNamePrefix the start of each thread's name, followed by the model and a
	 * number (for example {@code task-} gives {@code task-virtual-1})
	 * @param settings the model and its limits
	 * @param taskLimit the bound of the tasks whatever the model, or {@code null} for none
	 */
	public ThreadModelExecutor(String threadNamePrefix, ExecutorSettings settings, TaskLimit taskLimit) {
		this(threadNamePrefix, settings, null, taskLimit, AdaptiveLimit::new);
	}

	/**
	 * Creates an executor whose adaptive limit, if its settings ask for one, comes from the
	 * given factory (tests give the heap's state by hand).
	 */
	ThreadModelExecutor(String threadNamePrefix, ExecutorSettings settings, OverloadProtection overload,
			Function<AdaptiveAdmission, AdaptiveLimit> adaptiveLimits) {
		this(threadNamePrefix, settings, overload, null, adaptiveLimits);
	}

	private ThreadModelExecutor(String threadNamePrefix, ExecutorSettings settings, OverloadProtection overload,
			TaskLimit taskLimit, Function<AdaptiveAdmission, AdaptiveLimit> adaptiveLimits) {
		this.threadNamePrefix = threadNamePrefix;
		this.settings = settings;
		this.overload = overload;
		this.taskLimit = taskLimit;
		// fair: callers that wait for a turn get one in arrival order
		this.turns = (taskLimit != null) ? new Semaphore(taskLimit.maxConcurrency(), true) : null;
		this.adaptiveLimits = adaptiveLimits;
		this.threads = createThreads(settings);
	}

	/**
	 * Decorates every task handed over from now on, on the caller's thread, as Spring's
	 * own executors do; the decorator stays across switches.
	 * @param taskDecorator the decorator, or {@code null} for none
	 */
	public void setTaskDecorator(TaskDecorator taskDecorator) {
		this.taskDecorator = taskDecorator;
	}

	/**
	 * The decorator applied to every task.
	 * @return the decorator, or {@code null} when there is none
	 */
	public TaskDecorator getTaskDecorator() {
		return this.taskDecorator;
	}

	/**
	 * Makes {@link #close()} wait, at most this long, for the tasks it accepted to finish.
	 * @param terminationTimeout how long to wait; zero not to wait
	 */
	public void setTerminationTimeout(Duration terminationTimeout) {
		this.terminationTimeout = terminationTimeout;
	}

	/**
	 * The bound of the tasks whatever the model.
	 * @return the limit, or {@code null} when there is none
	 */
	public TaskLimit getTaskLimit() {
		return this.taskLimit;
	}

	private ModelThreads createThreads(ExecutorSettings settings) {
		AdaptiveLimit adaptive = this.adaptive;
		if (adaptive != null && !adaptive.settings().equals(settings.adaptive())) {
			adaptive.close();
			adaptive = null;
		}
		if (adaptive == null && settings.adaptive() != null) {
			adaptive = this.adaptiveLimits.apply(settings.adaptive());
		}
		this.adaptive = adaptive;
		return ModelThreads.create(settings, this.threadNamePrefix, this.overload,
				(submission) -> ((Submission) submission).refuse(Refusal.QUEUE_TIMEOUT), adaptive);
	}

	/**
	 * Runs the task on the threads of the model in force. With a {@link TaskLimit}, the
	 * caller waits here for a turn first, and gets a {@link TaskRejectedException} when
	 * none comes within the limit's queue timeout.
	 */
	@Override
	public void execute(Runnable task) {
		TaskDecorator decorator = this.taskDecorator;
		Runnable decorated = (decorator != null) ? decorator.decorate(task) : task;
		submit(new Submission(decorated, System.nanoTime(), true));
	}

	private void submit(Submission submission) {
		this.submitted.increment();
		if (this.turns != null) {
			submission.takeTurn();
		}
		ModelThreads threads = this.threads;
		while (true) {
			try {
				threads.execute(submission);
				return;
			}
			catch (RejectedExecutionException ex) {
				ModelThreads current = this.threads;
				if (current != threads) {
					threads = current; // the model was switched while this task was handed over
					continue;
				}
				if (this.overload == null || this.closed) {
					submission.giveTurnBack();
					this.rejected.increment();
					throw ex;
				}
				submission.refuse(Refusal.QUEUE_FULL);
				return;
			}
		}
	}

	/**
	 * Reads requests ahead of their turn: a task that would wait behind the model's limit
	 * starts at once on a virtual thread of its own with a {@link RequestTurn}, which the
	 * server's request handling then takes or skips (see {@link RequestTurn}). Only for an
	 * executor whose every task reaches code that does so; a task that ends without it
	 * gives its turn back. Beyond {@code limit} requests read ahead at once, and while an
	 * adaptive limit sees the heap under pressure, tasks wait unread as before: a request
	 * read ahead holds the server's buffers for it, and its thread's stack, while it waits.
	 * @param limit the most requests read ahead at once; 0 for none
	 */
	public void readRequestsAhead(int limit) {
		this.readAheadLimit = limit;
	}

	/**
	 * Runs the rest of a request that was read on a thread whose {@link RequestTurn} was
	 * used already (a later request on the same connection): it takes a turn of its own,
	 * as a new task of this executor, and the current thread waits until it is done.
	 * @param <E> the checked exception the work may throw
	 * @param request the rest of the request
	 * @param context carries this thread's context over to the thread that runs it
	 * @return the refusal when the executor refused it (the work did not run), or
	 * {@code null} once it ran
	 * @throws E what the work threw
	 * @throws InterruptedException if the thread is interrupted while it waits
	 */
	public <E extends Exception> Refusal runInTurn(RequestTurn.Work<E> request,
			UnaryOperator<Runnable> context) throws E, InterruptedException {
		RequestTurn turn = new RequestTurn(RequestTurn.Listener.NONE);
		submit(new Submission(() -> {
			Refusal refusal = Refusal.current();
			if (refusal != null) {
				turn.refuse(refusal);
				return;
			}
			Runnable work = turn.admit();
			if (work != null) {
				work.run();
			}
		}, System.nanoTime(), false));
		Refusal refusal = turn.await();
		if (refusal != null) {
			return refusal;
		}
		turn.runAdmitted(request, context);
		return null;
	}

	/**
	 * Replaces the threads behind this executor. New tasks go to the new threads at once;
	 * tasks waiting for a thread of the old model move to the new one, keeping their
	 * arrival order and the time they have waited; running tasks finish where they are, and
	 * the old threads end once idle.
	 * @param settings the new model and its limits
	 * @param requestedBy who or what asks for the switch, for the history
	 * @return the switch
	 */
	public synchronized ModelSwitch switchTo(ExecutorSettings settings, String requestedBy) {
		if (this.closed) {
			throw new IllegalStateException(this + " is closed");
		}
		ModelThreads old = this.threads;
		ModelThreads next = createThreads(settings);
		this.threads = next;
		this.settings = settings;
		old.shutdown();
		List<Runnable> waiting = old.drainWaiting();
		waiting.forEach((task) -> handOver(task, next));
		ModelSwitch change = new ModelSwitch(Instant.now(), old.model(), next.model(), requestedBy, waiting.size());
		synchronized (this.history) {
			if (this.history.size() == HISTORY_SIZE) {
				this.history.removeLast();
			}
			this.history.addFirst(change);
		}
		this.switchListeners.forEach((listener) -> listener.accept(change));
		return change;
	}

	/**
	 * Moves a waiting task to the new threads. A task they refuse (a smaller bounded queue)
	 * still runs, on a virtual thread of its own: a request that was accepted is never dropped.
	 */
	private void handOver(Runnable task, ModelThreads next) {
		try {
			next.executeHandedOver(task);
		}
		catch (RejectedExecutionException ex) {
			Thread.ofVirtual().name(this.threadNamePrefix + "handover").start(task);
		}
	}

	/**
	 * The last switches, newest first.
	 * @return up to ten switches
	 */
	public List<ModelSwitch> switchHistory() {
		synchronized (this.history) {
			return List.copyOf(this.history);
		}
	}

	/**
	 * Calls the listener after every switch.
	 * @param listener the listener
	 */
	public void onSwitch(Consumer<ModelSwitch> listener) {
		this.switchListeners.add(listener);
	}

	private void run(Runnable task, long submittedAt, long startedOnVirtualThreadAt) {
		long now = System.nanoTime();
		long waited = now - submittedAt;
		if (startedOnVirtualThreadAt != 0) {
			this.carrierWait.add(now - startedOnVirtualThreadAt);
		}
		this.peakRunning.accumulateAndGet(this.running.incrementAndGet(), Math::max);
		this.started.increment();
		this.totalWaitNanos.add(waited);
		this.maxWaitNanos.accumulate(waited);
		long cpuBefore = this.measuringCpuTime ? platformThreadCpuTime() : -1;
		try {
			task.run();
		}
		finally {
			if (cpuBefore >= 0) {
				this.platformCpuNanos.add(Math.max(0, platformThreadCpuTime() - cpuBefore));
			}
			this.running.decrementAndGet();
			this.completed.increment();
		}
	}

	/**
	 * The CPU time of the current thread when it is a platform thread, otherwise -1.
	 */
	private static long platformThreadCpuTime() {
		return (threadCpuTimeSupported && !Thread.currentThread().isVirtual()) ? threadBean.getCurrentThreadCpuTime()
				: -1;
	}

	/**
	 * Starts summing the CPU time of the tasks that run on platform threads, for
	 * {@link #platformCpuTime()}. Off by default: only {@code app.threads.model=auto} reads it.
	 */
	public void measureCpuTime() {
		this.measuringCpuTime = true;
	}

	/**
	 * The CPU time used by tasks that ran on platform threads since
	 * {@link #measureCpuTime()}, summed. Compared with the
	 * wall-clock time that passed, it tells whether busy platform threads compute or wait.
	 * Virtual threads do not report their CPU time, so tasks on them add nothing.
	 * @return the CPU time so far
	 */
	public Duration platformCpuTime() {
		return Duration.ofNanos(this.platformCpuNanos.sum());
	}

	/**
	 * The model the executor runs tasks on.
	 * @return the thread model
	 */
	public ThreadModel getModel() {
		return this.threads.model();
	}

	/**
	 * The model and limits in force.
	 * @return the settings
	 */
	public ExecutorSettings getSettings() {
		return this.settings;
	}

	/**
	 * How tasks are admitted on virtual threads, and where the limit stands.
	 * @return the admission, or {@code null} while the executor runs platform threads
	 */
	public AdmissionStatus admission() {
		return this.threads.admission();
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
				threads.poolSize(), threads.maxPoolSize(),
				(this.taskLimit != null) ? Integer.valueOf(this.taskLimit.maxConcurrency()) : threads.maxConcurrency(),
				this.peakRunning.get(),
				this.timedOut.sum(), this.queueWait.stats(), this.carrierWait.stats());
	}

	/**
	 * Waits, at most the given time, until no task waits for a thread; then refuses the
	 * tasks still waiting with {@link Refusal#SHUTDOWN} (with {@link OverloadProtection},
	 * they run at once marked with it, so that the server answers them 503) and waits until
	 * they are done, at most {@link #REFUSED_TASKS_GRACE} more. For a graceful shutdown: the
	 * server stops taking new connections first, then every request it accepted either runs
	 * or is answered, never dropped. New tasks are still accepted meanwhile (more requests
	 * on open connections).
	 * @param timeout how long the waiting tasks may take to start
	 * @return the number of tasks refused
	 * @throws InterruptedException if the thread is interrupted while it waits
	 */
	public int finishQueued(Duration timeout) throws InterruptedException {
		awaitZero(this.queued::get, timeout);
		int refused;
		synchronized (this) {
			List<Runnable> waiting = this.threads.drainWaiting();
			waiting.forEach((task) -> ((Submission) task).refuse(Refusal.SHUTDOWN));
			refused = waiting.size();
		}
		awaitZero(this.refusedRunning::get, REFUSED_TASKS_GRACE);
		return refused;
	}

	private static void awaitZero(LongSupplier count, Duration timeout) throws InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (count.getAsLong() > 0 && System.nanoTime() - deadline < 0) {
			Thread.sleep(10);
		}
	}

	/**
	 * Refuses new tasks and lets the threads end once the tasks already accepted are done;
	 * with a {@link #setTerminationTimeout termination timeout}, waits for them that long
	 * at most.
	 */
	@Override
	public void close() {
		synchronized (this) {
			this.closed = true;
			this.threads.shutdown();
			if (this.adaptive != null) {
				this.adaptive.close();
			}
		}
		Duration timeout = this.terminationTimeout;
		if (!timeout.isZero()) {
			try {
				awaitZero(this::unfinished, timeout);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

	/**
	 * Tasks accepted and not finished yet: waiting, running, or between the two.
	 */
	private long unfinished() {
		return this.submitted.sum() - this.rejected.sum() - this.completed.sum();
	}

	/**
	 * A task handed to the executor, with the time it arrived, and whether it waits behind
	 * the model's limit: it counts in the queue depth from the moment the threads say so
	 * until it gets a thread (or is refused). A task the threads take at once never counts,
	 * however long its thread then takes to run it.
	 */
	private final class Submission implements Runnable, ModelThreads.Admission, RequestTurn.Listener {

		private static final int NEW = 0;

		private static final int WAITING = 1;

		private static final int DONE = 2;

		private final Runnable task;

		private final long submittedAt;

		private final boolean mayReadAhead;

		private final AtomicInteger state = new AtomicInteger(NEW);

		/** When it got a virtual thread of its own, or 0 (platform threads). */
		private volatile long startedOnVirtualThreadAt;

		/**
		 * Whether the task was claimed to run: by the thread that admits it, or by a thread
		 * that reads its request ahead. Exactly one of them runs it.
		 */
		private final AtomicBoolean claimed = new AtomicBoolean();

		/** The turn of a task read ahead, set before its claim; {@code null} otherwise. */
		private volatile RequestTurn turn;

		/** Whether it holds a turn of the {@link TaskLimit}, given back when it ends. */
		private volatile boolean holdsTurn;

		Submission(Runnable task, long submittedAt, boolean mayReadAhead) {
			this.task = task;
			this.submittedAt = submittedAt;
			this.mayReadAhead = mayReadAhead;
		}

		@Override
		public void waitsBehindLimit() {
			ThreadModelExecutor executor = ThreadModelExecutor.this;
			// counted before the state says so, so that whoever admits the task meanwhile
			// never takes the depth below zero
			int queued = executor.queued.incrementAndGet();
			if (this.state.compareAndSet(NEW, WAITING)) {
				executor.peakQueued.accumulateAndGet(queued, Math::max);
				readAheadIfAllowed();
			}
			else {
				executor.queued.decrementAndGet(); // admitted (or refused) already, or waiting since a switch
			}
		}

		private void readAheadIfAllowed() {
			ThreadModelExecutor executor = ThreadModelExecutor.this;
			AdaptiveLimit adaptive = executor.adaptive;
			if (!this.mayReadAhead || (adaptive != null && adaptive.isPressured())) {
				return; // a request read ahead takes heap the adaptive limit says is not there
			}
			if (executor.readingAhead.incrementAndGet() > executor.readAheadLimit) {
				executor.readingAhead.decrementAndGet();
				return;
			}
			RequestTurn turn = new RequestTurn(this);
			this.turn = turn;
			if (!this.claimed.compareAndSet(false, true)) {
				this.turn = null; // admitted meanwhile: its thread runs it
				executor.readingAhead.decrementAndGet();
				return;
			}
			Thread.ofVirtual().name(executor.threadNamePrefix + "ahead").start(() -> {
				try {
					turn.readAhead(this.task);
				}
				finally {
					executor.readingAhead.decrementAndGet();
				}
			});
		}

		@Override
		public void startsOnVirtualThread() {
			long now = System.nanoTime();
			this.startedOnVirtualThreadAt = now;
			admitted(now);
		}

		private void admitted(long now) {
			if (leaveQueue()) {
				ThreadModelExecutor.this.queueWait.add(now - this.submittedAt);
			}
		}

		/**
		 * Marks the task decided (admitted, refused, or gone), once.
		 * @return whether it was waiting behind the limit until now, and so no longer counts
		 * in the queue depth
		 */
		private boolean leaveQueue() {
			if (this.state.getAndSet(DONE) == WAITING) {
				ThreadModelExecutor.this.queued.decrementAndGet();
				return true;
			}
			return false;
		}

		/**
		 * Counts the task as refused.
		 */
		private void countRefused(boolean timedOut) {
			leaveQueue();
			ThreadModelExecutor.this.rejected.increment();
			if (timedOut) {
				ThreadModelExecutor.this.timedOut.increment();
			}
		}

		@Override
		public void run() {
			if (this.state.get() != DONE) {
				admitted(System.nanoTime()); // a pool thread took it
			}
			try {
				if (this.claimed.compareAndSet(false, true)) {
					ThreadModelExecutor.this.run(this.task, this.submittedAt, this.startedOnVirtualThreadAt);
					return;
				}
				// read ahead: this thread is the request's turn; it runs what the request hands over
				Runnable work = this.turn.admit();
				if (work != null) {
					ThreadModelExecutor.this.run(work, this.submittedAt, this.startedOnVirtualThreadAt);
				}
			}
			finally {
				giveTurnBack();
			}
		}

		/**
		 * Waits, on the caller's thread, for a turn of the {@link TaskLimit}; counts in the
		 * queue depth while it waits.
		 * @throws TaskRejectedException when no turn came within the queue timeout, or the
		 * caller was interrupted while it waited
		 */
		void takeTurn() {
			ThreadModelExecutor executor = ThreadModelExecutor.this;
			Duration timeout = executor.taskLimit.queueTimeout();
			boolean taken;
			try {
				// timed even when it does not wait: the untimed tryAcquire() would take a turn
				// ahead of the callers already waiting
				taken = executor.turns.tryAcquire(0, TimeUnit.NANOSECONDS);
				if (!taken) {
					waitsBehindLimit();
					if (timeout != null) {
						taken = executor.turns.tryAcquire(timeout.toNanos(), TimeUnit.NANOSECONDS);
					}
					else {
						executor.turns.acquire();
						taken = true;
					}
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				countRefused(false);
				throw new TaskRejectedException(executor + " did not accept a task: the caller was interrupted "
						+ "while it waited for one of the " + executor.taskLimit.maxConcurrency() + " turns");
			}
			if (!taken) {
				countRefused(true);
				throw new TaskRejectedException(executor + " did not accept a task: all "
						+ executor.taskLimit.maxConcurrency() + " turns (max-concurrency) stayed taken for "
						+ timeout.toMillis() + " ms (queue-timeout)");
			}
			this.holdsTurn = true;
			admitted(System.nanoTime());
		}

		/**
		 * Gives the turn of the {@link TaskLimit} back, once: the task ended, or the threads
		 * refused it.
		 */
		void giveTurnBack() {
			if (this.holdsTurn) {
				this.holdsTurn = false;
				ThreadModelExecutor.this.turns.release();
			}
		}

		/**
		 * Runs the task outside the limits, marked with the refusal: it was accepted (a
		 * connection the server read from), so it is answered, not dropped. A task read
		 * ahead is answered on its own thread, which its turn tells.
		 */
		void refuse(Refusal refusal) {
			ThreadModelExecutor executor = ThreadModelExecutor.this;
			RequestTurn turn = this.turn;
			if (turn != null && !turn.refuse(refusal)) {
				return; // it left the queue already
			}
			countRefused(refusal == Refusal.QUEUE_TIMEOUT);
			if (turn != null) {
				return;
			}
			executor.refusedRunning.incrementAndGet();
			Thread.ofVirtual().name(executor.threadNamePrefix + "refused").start(() -> {
				try {
					refusal.run(this.task);
				}
				finally {
					executor.refusedRunning.decrementAndGet();
				}
			});
		}

		/**
		 * The request left the queue before its turn: it ran on its own thread, outside the
		 * limits (a health probe, or a task whose request was not whole yet).
		 */
		@Override
		public void left() {
			leaveQueue();
			ThreadModelExecutor.this.started.increment();
			ThreadModelExecutor.this.completed.increment();
		}

	}

	/**
	 * Waits of one kind: how many, how long in all, the longest.
	 */
	private static final class WaitTotals {

		private final LongAdder count = new LongAdder();

		private final LongAdder totalNanos = new LongAdder();

		private final LongAccumulator maxNanos = new LongAccumulator(Math::max, 0);

		void add(long nanos) {
			this.count.increment();
			this.totalNanos.add(nanos);
			this.maxNanos.accumulate(nanos);
		}

		ExecutorStats.Wait stats() {
			return new ExecutorStats.Wait(this.count.sum(), Duration.ofNanos(this.totalNanos.sum()),
					Duration.ofNanos(this.maxNanos.get()));
		}

	}

	@Override
	public String toString() {
		return "ThreadModelExecutor[" + this.threadNamePrefix + this.threads.model().id() + "]";
	}

}
