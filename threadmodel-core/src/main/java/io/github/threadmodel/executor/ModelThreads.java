package io.github.threadmodel.executor;

import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

import io.github.threadmodel.executor.ExecutorSettings.OverloadProtection;

/**
 * The threads of one {@link ThreadModel} behind a {@link ThreadModelExecutor}.
 */
sealed interface ModelThreads extends Executor permits PlatformThreadPool, VirtualThreads {

	ThreadModel model();

	/**
	 * Platform threads alive now, or {@code null} on virtual threads.
	 */
	Integer poolSize();

	/**
	 * The platform pool's limit, or {@code null} on virtual threads or for a pool without
	 * one.
	 */
	Integer maxPoolSize();

	/**
	 * The virtual concurrency limit, or {@code null} when there is none.
	 */
	Integer maxConcurrency();

	/**
	 * How tasks are admitted on virtual threads.
	 * @return the admission, or {@code null} on platform threads
	 */
	default ExecutorStats.Admission admission() {
		return null;
	}

	/**
	 * Refuses new tasks; tasks accepted already still run, and the threads end when idle.
	 */
	void shutdown();

	/**
	 * Removes the tasks that are waiting for a thread, so that other threads can run them.
	 * @return the waiting tasks, in arrival order
	 */
	List<Runnable> drainWaiting();

	/**
	 * Takes one task out of the queue, unless a thread took it already.
	 * @param task the task, as the executor handed it over
	 * @return whether it was waiting, and no thread will run it
	 */
	boolean withdraw(Runnable task);

	/**
	 * Runs a task that waited for a thread of another model and moved here at a switch:
	 * like {@link #execute}, except that it does not time out again.
	 * @param task the task
	 */
	default void executeHandedOver(Runnable task) {
		execute(task);
	}

	/**
	 * Tells the executor that a task waits behind the model's limit: every platform thread
	 * of the pool is busy, or every permit of the virtual concurrency limit is taken.
	 * @param task the task, as the executor handed it over
	 */
	static void waitsBehindLimit(Runnable task) {
		if (task instanceof Admission admission) {
			admission.waitsBehindLimit();
		}
	}

	/**
	 * Tells the executor that a task got a virtual thread of its own, which now waits for
	 * a carrier thread to run on.
	 * @param task the task, as the executor handed it over
	 */
	static void startsOnVirtualThread(Runnable task) {
		if (task instanceof Admission admission) {
			admission.startsOnVirtualThread();
		}
	}

	/**
	 * The threads for the given settings.
	 * @param settings the model and its limits
	 * @param threadNamePrefix the start of each thread's name
	 * @param overload the overload protection, or {@code null} for none
	 * @param timedOut takes each task that waited longer than the protection's queue timeout
	 * @param adaptive the executor's adaptive limiter when admission is adaptive, otherwise
	 * {@code null}
	 * @return the threads, started
	 */
	static ModelThreads create(ExecutorSettings settings, String threadNamePrefix, OverloadProtection overload,
			Consumer<Runnable> timedOut, AdaptiveLimiter adaptive) {
		return switch (settings.model()) {
			case PLATFORM -> new PlatformThreadPool(settings.platform(), threadNamePrefix + "platform-");
			case VIRTUAL -> new VirtualThreads(permits(settings.admission(), adaptive),
					(overload != null) ? overload.queueTimeout() : null, timedOut, threadNamePrefix + "virtual-");
		};
	}

	private static Permits permits(ExecutorSettings.Admission admission, AdaptiveLimiter adaptive) {
		return switch (admission) {
			case ExecutorSettings.UnlimitedAdmission unlimited -> null;
			case ExecutorSettings.FixedAdmission fixed -> new Permits.Fixed(fixed.maxConcurrency());
			case ExecutorSettings.AdaptiveAdmission bounds -> adaptive;
		};
	}

	/**
	 * A task of the executor that wants to know why it waits: behind the model's limit
	 * (admission), or, once it has a virtual thread, for a carrier thread.
	 */
	interface Admission {

		void waitsBehindLimit();

		void startsOnVirtualThread();

	}

}
