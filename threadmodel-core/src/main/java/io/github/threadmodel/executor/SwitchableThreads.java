package io.github.threadmodel.executor;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import java.util.function.Function;

import io.github.threadmodel.executor.ExecutorSettings.AdaptiveAdmission;
import io.github.threadmodel.executor.ExecutorSettings.OverloadProtection;

/**
 * The threads behind a {@link ThreadModelExecutor}, replaced at each switch: the
 * {@link ModelThreads} in force, the adaptive limit carried across switches, and the
 * history of switches.
 */
final class SwitchableThreads {

	private final String threadNamePrefix;

	private final OverloadProtection overload;

	/** Takes each task that waited longer than the overload protection's queue timeout. */
	private final Consumer<Runnable> timedOut;

	private final Function<AdaptiveAdmission, AdaptiveLimiter> adaptiveLimits;

	/**
	 * The adaptive limit of the virtual model, kept across switches so that what it learnt
	 * and the tasks it counts in flight carry over; {@code null} without one.
	 */
	private volatile AdaptiveLimiter adaptive;

	private volatile ModelThreads threads;

	private volatile ExecutorSettings settings;

	private volatile boolean closed;

	private final SwitchHistory history = new SwitchHistory();

	SwitchableThreads(String threadNamePrefix, ExecutorSettings settings, OverloadProtection overload,
			Consumer<Runnable> timedOut, Function<AdaptiveAdmission, AdaptiveLimiter> adaptiveLimits) {
		this.threadNamePrefix = threadNamePrefix;
		this.overload = overload;
		this.timedOut = timedOut;
		this.adaptiveLimits = adaptiveLimits;
		this.threads = create(settings);
		this.settings = settings;
	}

	/**
	 * The threads for the settings, with an adaptive limiter only while admission is
	 * adaptive: the one in force when its bounds are unchanged (on either model, so that
	 * what it learnt and the tasks it counts carry over), otherwise a new one; a limiter
	 * no longer needed is closed, so that it stops listening to the collector.
	 */
	private ModelThreads create(ExecutorSettings settings) {
		AdaptiveLimiter adaptive = this.adaptive;
		AdaptiveAdmission wanted = (settings.admission() instanceof AdaptiveAdmission bounds) ? bounds : null;
		if (adaptive != null && !adaptive.settings().equals(wanted)) {
			adaptive.close();
			adaptive = null;
		}
		if (adaptive == null && wanted != null) {
			adaptive = this.adaptiveLimits.apply(wanted);
		}
		this.adaptive = adaptive;
		return ModelThreads.create(settings, this.threadNamePrefix, this.overload, this.timedOut, adaptive);
	}

	ModelThreads current() {
		return this.threads;
	}

	ExecutorSettings settings() {
		return this.settings;
	}

	/**
	 * Hands a task to the threads in force, or to the next ones when a switch retired
	 * these while the task was handed over.
	 * @throws RejectedExecutionException when the threads in force refuse it
	 */
	void execute(Runnable task) {
		ModelThreads threads = this.threads;
		while (true) {
			try {
				threads.execute(task);
				return;
			}
			catch (RejectedExecutionException ex) {
				ModelThreads current = this.threads;
				if (current == threads) {
					throw ex;
				}
				threads = current; // the model was switched while this task was handed over
			}
		}
	}

	/**
	 * Whether a task the threads refuse is answered (run marked with its refusal) rather
	 * than refused with an exception: with overload protection, until closed.
	 */
	boolean answersRefusals() {
		return this.overload != null && !this.closed;
	}

	/** Whether an adaptive limit sees the heap under pressure. */
	boolean heapPressured() {
		AdaptiveLimiter adaptive = this.adaptive;
		return adaptive != null && adaptive.isPressured();
	}

	SwitchHistory history() {
		return this.history;
	}

	/** See {@link ThreadModelExecutor#switchTo}. */
	synchronized ModelSwitch switchTo(ExecutorSettings settings, SwitchSource source, String requestedBy,
			Object executor) {
		if (this.closed) {
			throw new IllegalStateException(executor + " is closed");
		}
		ModelThreads old = this.threads;
		ModelThreads next = create(settings);
		this.threads = next;
		this.settings = settings;
		old.shutdown();
		List<Runnable> waiting = old.drainWaiting();
		waiting.forEach((task) -> handOver(task, next));
		ModelSwitch change = new ModelSwitch(Instant.now(), old.model(), next.model(), source, requestedBy,
				waiting.size());
		this.history.add(change);
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
	 * Removes the tasks waiting for a thread of the model in force, between switches.
	 * @return the waiting tasks, in arrival order
	 */
	synchronized List<Runnable> drainWaiting() {
		return this.threads.drainWaiting();
	}

	/**
	 * Takes a task out of the queue of the threads in force, between switches: a task
	 * that waited for the old threads waits for the new ones after a switch.
	 * @return whether it was waiting, and no thread will run it
	 */
	synchronized boolean withdraw(Runnable task) {
		return this.threads.withdraw(task);
	}

	/**
	 * Refuses new tasks; the threads end once the tasks already accepted are done.
	 */
	synchronized void close() {
		this.closed = true;
		this.threads.shutdown();
		if (this.adaptive != null) {
			this.adaptive.close();
		}
	}

}
