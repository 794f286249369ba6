package io.github.threadmodel.executor;

import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * The longest a task of a {@link ThreadModelExecutor} waits for a thread, on either model,
 * before it is refused with {@link Refusal#IDLE_TIMEOUT} (see
 * {@link ThreadModelExecutor#setMaxIdleWait}); none until it is set.
 */
final class IdleWait {

	/** Takes a waiting task out of the queue of the threads in force, if it is still there. */
	private final Predicate<Runnable> withdraw;

	private volatile Duration max;

	IdleWait(Predicate<Runnable> withdraw) {
		this.withdraw = withdraw;
	}

	Duration max() {
		return this.max;
	}

	void max(Duration max) {
		this.max = max;
	}

	/**
	 * Refuses the task once it has waited the longest wait since it was handed over,
	 * unless it left the queue before: admitted, refused, or drained at a shutdown.
	 * @param task a task that waits behind the limit
	 * @param submittedAt when it was handed over, in {@link System#nanoTime()}
	 */
	void arm(Submission task, long submittedAt) {
		Duration max = this.max;
		if (max == null) {
			return;
		}
		long delay = Math.max(0, submittedAt + max.toNanos() - System.nanoTime());
		// Weakly: while the task waits, its queue holds it; one that got its thread meanwhile
		// is not kept, with its request, until the expiry, which cannot be cancelled.
		WeakReference<Submission> waiting = new WeakReference<>(task);
		// the JDK's shared delay scheduler, as for the queue timeout (VirtualThreads); the
		// task is withdrawn from whichever threads hold it, after a switch too
		CompletableFuture.delayedExecutor(delay, TimeUnit.NANOSECONDS, Runnable::run).execute(() -> {
			Submission queued = waiting.get();
			if (queued != null && this.withdraw.test(queued)) {
				queued.refuse(Refusal.IDLE_TIMEOUT);
			}
		});
	}

}
