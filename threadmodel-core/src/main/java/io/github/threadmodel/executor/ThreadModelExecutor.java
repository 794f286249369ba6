package io.github.threadmodel.executor;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.UnaryOperator;

import io.github.threadmodel.executor.ExecutorSettings.AdaptiveAdmission;
import io.github.threadmodel.executor.ExecutorSettings.OverloadProtection;
import io.github.threadmodel.executor.ExecutorSettings.TaskLimit;
import io.github.threadmodel.internal.handoff.RequestHandOff;
import io.github.threadmodel.internal.handoff.RequestTurn;

import org.springframework.core.task.AsyncTaskExecutor;
import org.springframework.core.task.TaskDecorator;
import org.springframework.core.task.TaskRejectedException;

/**
 * The executor a web server hands request work to (or that runs application tasks). It
 * runs each task on the threads of its {@link ThreadModel}; its {@link TaskRecorder}
 * counts what the tasks do.
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
 * @since 0.1.0
 */
public final class ThreadModelExecutor implements AsyncTaskExecutor, AutoCloseable {

	static {
		RequestHandOff.register(new ExecutorHandOff());
	}

	private final String threadNamePrefix;

	private final SwitchableThreads threads;

	private volatile TaskDecorator taskDecorator;

	/** How long {@link #close()} waits for the accepted tasks to finish; zero: not at all. */
	private volatile Duration terminationTimeout = Duration.ZERO;

	private final TaskRecorder recorder = new TaskRecorder();

	/** What every {@link Submission} of this executor uses. */
	private final Submission.Parts parts;

	/**
	 * Creates an executor and starts the threads of its model.
	 * @param threadNamePrefix the start of each thread's name, followed by the model and a
	 * number (for example {@code request-} gives {@code request-platform-1})
	 * @param settings the model and its limits
	 */
	public ThreadModelExecutor(String threadNamePrefix, ExecutorSettings settings) {
		this(threadNamePrefix, settings, null, null, AdaptiveLimiter::new);
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
		this(threadNamePrefix, settings, overload, null, AdaptiveLimiter::new);
	}

	/**
	 * Creates an application task executor and starts the threads of its model.
	 * @param threadNamePrefix the start of each thread's name, followed by the model and a
	 * number (for example {@code task-} gives {@code task-virtual-1})
	 * @param settings the model and its limits
	 * @param taskLimit the bound of the tasks whatever the model, or {@code null} for none
	 */
	public ThreadModelExecutor(String threadNamePrefix, ExecutorSettings settings, TaskLimit taskLimit) {
		this(threadNamePrefix, settings, null, taskLimit, AdaptiveLimiter::new);
	}

	/**
	 * Creates an executor whose adaptive limit, if its settings ask for one, comes from the
	 * given factory (tests give the heap's state by hand).
	 */
	ThreadModelExecutor(String threadNamePrefix, ExecutorSettings settings, OverloadProtection overload,
			Function<AdaptiveAdmission, AdaptiveLimiter> adaptiveLimits) {
		this(threadNamePrefix, settings, overload, null, adaptiveLimits);
	}

	private ThreadModelExecutor(String threadNamePrefix, ExecutorSettings settings, OverloadProtection overload,
			TaskLimit taskLimit, Function<AdaptiveAdmission, AdaptiveLimiter> adaptiveLimits) {
		this.threadNamePrefix = threadNamePrefix;
		this.threads = new SwitchableThreads(threadNamePrefix, settings, overload,
				(submission) -> ((Submission) submission).refuse(Refusal.QUEUE_TIMEOUT), adaptiveLimits);
		this.parts = new Submission.Parts(this, this.recorder, (taskLimit != null) ? new TaskTurns(taskLimit) : null,
				new ReadAhead(threadNamePrefix + "ahead", this.threads::heapPressured),
				new RefusedTasks(threadNamePrefix + "refused"), new IdleWait(this.threads::withdraw));
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
		TaskTurns turns = this.parts.turns();
		return (turns != null) ? turns.limit() : null;
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
		new Submission(decorated, true, this.parts).handOver(this.threads);
	}

	/** See {@link RequestHandOff#readRequestsAhead}. */
	void readRequestsAhead(int limit) {
		this.parts.readAhead().limit(limit);
	}

	/**
	 * Bounds how long a task waits for a thread, on either model, from the moment it was
	 * handed over: one that waited this long is refused with {@link Refusal#IDLE_TIMEOUT}
	 * (it runs at once outside the limits, marked with it, as with
	 * {@link OverloadProtection}). For a web server that closes a connection it has not
	 * read from for a while, its request waiting in this executor's queue included: the
	 * request is answered before the server closes the connection unanswered. A shorter
	 * queue timeout still refuses first, with {@link Refusal#QUEUE_TIMEOUT}.
	 * @param maxIdleWait the longest wait, or {@code null} for no limit (the default)
	 */
	public void setMaxIdleWait(Duration maxIdleWait) {
		this.parts.idleWait().max(maxIdleWait);
	}

	/**
	 * The longest a task waits for a thread before it is refused with
	 * {@link Refusal#IDLE_TIMEOUT}.
	 * @return the longest wait, or {@code null} when there is no limit
	 */
	public Duration getMaxIdleWait() {
		return this.parts.idleWait().max();
	}

	/** See {@link RequestHandOff#runInTurn}. */
	<E extends Exception> Refusal runInTurn(RequestTurn.Work<E> request, UnaryOperator<Runnable> context)
			throws E, InterruptedException {
		ReadAheadTurn turn = new ReadAheadTurn(ReadAheadTurn.Listener.NONE);
		Submission.takingTurn(turn, this.parts).handOver(this.threads);
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
	 * @param source who or what asks for the switch
	 * @param requestedBy who or what asks for the switch, in words, for the history
	 * @return the switch
	 */
	public ModelSwitch switchTo(ExecutorSettings settings, SwitchSource source, String requestedBy) {
		return this.threads.switchTo(settings, source, requestedBy, this);
	}

	/**
	 * The last switches, newest first.
	 * @return up to ten switches
	 */
	public List<ModelSwitch> switchHistory() {
		return this.threads.history().list();
	}

	/**
	 * Calls the listener after every switch.
	 * @param listener the listener
	 */
	public void onSwitch(Consumer<ModelSwitch> listener) {
		this.threads.history().onSwitch(listener);
	}

	/**
	 * The model the executor runs tasks on.
	 * @return the thread model
	 */
	public ThreadModel getModel() {
		return this.threads.current().model();
	}

	/**
	 * The model and limits in force.
	 * @return the settings
	 */
	public ExecutorSettings getSettings() {
		return this.threads.settings();
	}

	/**
	 * How tasks are admitted on virtual threads, and where the limit stands.
	 * @return the admission, or {@code null} while the executor runs platform threads
	 */
	public ExecutorStats.Admission admission() {
		return this.threads.current().admission();
	}

	/**
	 * The start of the names of the executor's threads.
	 * @return the thread name prefix
	 */
	public String getThreadNamePrefix() {
		return this.threadNamePrefix;
	}

	/**
	 * What the tasks do and have done, counted as it happens, across switches: the live
	 * figures that meters and the endpoint read.
	 * @return the recorder
	 */
	public TaskRecorder recorder() {
		return this.recorder;
	}

	/**
	 * The platform threads alive now.
	 * @return the count, or {@code null} on virtual threads
	 */
	public Integer poolSize() {
		return this.threads.current().poolSize();
	}

	/**
	 * The platform pool's limit.
	 * @return the limit, or {@code null} on virtual threads or for a pool without one
	 */
	public Integer maxPoolSize() {
		return this.threads.current().maxPoolSize();
	}

	/**
	 * The virtual concurrency limit, or the {@link TaskLimit} on either model.
	 * @return the limit, or {@code null} when unlimited or on platform threads
	 */
	public Integer maxConcurrency() {
		TaskLimit limit = getTaskLimit();
		return (limit != null) ? Integer.valueOf(limit.maxConcurrency()) : this.threads.current().maxConcurrency();
	}

	/**
	 * What the executor is doing now and has done so far, as one value: for comparing
	 * the figures of two moments (the live figures are in {@link #recorder()}).
	 * @return a snapshot of its figures
	 */
	public ExecutorStats stats() {
		ModelThreads threads = this.threads.current();
		return this.recorder.snapshot(threads.model(), threads.poolSize(), threads.maxPoolSize(), maxConcurrency());
	}

	/**
	 * Waits, at most the given time, until no task waits for a thread; then refuses the
	 * tasks still waiting with {@link Refusal#SHUTDOWN} (with {@link OverloadProtection},
	 * they run at once marked with it, so that the server answers them 503) and waits until
	 * they are done, at most five seconds more. For a graceful shutdown: the server stops
	 * taking new connections first, then every request it accepted either runs or is
	 * answered, never dropped. New tasks are still accepted meanwhile (more requests on
	 * open connections).
	 * @param timeout how long the waiting tasks may take to start
	 * @return the number of tasks refused
	 * @throws InterruptedException if the thread is interrupted while it waits
	 */
	public int finishQueued(Duration timeout) throws InterruptedException {
		this.recorder.awaitQueueEmpty(timeout);
		List<Runnable> waiting = this.threads.drainWaiting();
		waiting.forEach((task) -> ((Submission) task).refuse(Refusal.SHUTDOWN));
		this.parts.refused().awaitDone();
		return waiting.size();
	}

	/**
	 * Refuses new tasks and lets the threads end once the tasks already accepted are done;
	 * with a {@link #setTerminationTimeout termination timeout}, waits for them that long
	 * at most.
	 */
	@Override
	public void close() {
		this.threads.close();
		Duration timeout = this.terminationTimeout;
		if (!timeout.isZero()) {
			try {
				this.recorder.awaitFinished(timeout);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

	@Override
	public String toString() {
		return "ThreadModelExecutor[" + this.threadNamePrefix + getModel().id() + "]";
	}

}
