package io.github.threadmodel.executor;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;

/**
 * The turn of a request that a {@link ThreadModelExecutor} reads ahead: a task that would
 * wait behind the model's limit starts at once on a virtual thread of its own, so that
 * the server reads the request, while its place in the queue stays where it arrived. Code
 * on that thread that knows the request (the starter's servlet filter) then either lets
 * it {@link #skip() skip} the queue (a health probe), or {@link #await() waits} for the
 * turn and {@link #runAdmitted runs} the rest of the request on the thread of the model
 * that admitted it, holding the limit as any task does.
 * <p>
 * Only the executor makes turns; code finds the one of its thread with {@link #current()}.
 * @since 0.1.0
 */
public final class RequestTurn {

	private static final ThreadLocal<RequestTurn> current = new ThreadLocal<>();

	/** What the queue decided, once: admitted, refused, or left by the request itself. */
	private enum Outcome {

		ADMITTED, REFUSED, LEFT

	}

	private final AtomicReference<Outcome> outcome = new AtomicReference<>();

	private final CompletableFuture<Outcome> decided = new CompletableFuture<>();

	/** The work the admitted thread runs, or {@code null} for none. */
	private final CompletableFuture<Runnable> work = new CompletableFuture<>();

	private final Listener listener;

	private volatile Refusal refusal;

	/** Whether the request on this thread already took (or skipped) this turn. */
	private boolean used;

	RequestTurn(Listener listener) {
		this.listener = listener;
	}

	/**
	 * The turn of the request the current thread reads ahead.
	 * @return the turn, or {@code null} when the thread was admitted before it read the
	 * request (or runs no executor task)
	 */
	public static RequestTurn current() {
		return current.get();
	}

	/**
	 * Whether the request on this thread may still take or skip this turn: a later
	 * request read on the same thread (a kept-alive connection) has to ask the executor
	 * for a turn of its own ({@link ThreadModelExecutor#runInTurn}).
	 * @return whether the turn is unused
	 */
	public boolean isUnused() {
		return !this.used;
	}

	/**
	 * Leaves the queue without waiting and without taking a turn, for a request that must
	 * never wait (a health probe). It then runs on this thread, outside the limits.
	 */
	public void skip() {
		this.used = true;
		if (decide(Outcome.LEFT)) {
			this.listener.left();
		}
		this.work.complete(null); // an admitted thread waiting for work gives its turn back
	}

	/**
	 * Waits until the queue admits the request or refuses it.
	 * @return the refusal, or {@code null} once admitted
	 * @throws InterruptedException if the thread is interrupted while it waits
	 */
	public Refusal await() throws InterruptedException {
		this.used = true;
		try {
			return (this.decided.get() == Outcome.REFUSED) ? this.refusal : null;
		}
		catch (ExecutionException ex) {
			throw new IllegalStateException(ex.getCause());
		}
	}

	/**
	 * Runs the rest of the request on the thread that admitted it, and waits until it is
	 * done. Call it after {@link #await()} answered {@code null}.
	 * @param <E> the checked exception the work may throw
	 * @param request the rest of the request
	 * @param context carries this thread's context (its class loader, the server's
	 * request context) over to the admitted thread
	 * @throws E what the work threw
	 * @throws InterruptedException if the thread is interrupted while it waits
	 */
	public <E extends Exception> void runAdmitted(Work<E> request, UnaryOperator<Runnable> context)
			throws E, InterruptedException {
		Done done = new Done(request);
		this.work.complete(context.apply(done));
		done.rethrow();
	}

	// The executor's side

	/**
	 * Runs the task on the current thread with this turn as its thread's, and gives the
	 * turn back if the task ends without taking it (the server read no whole request).
	 */
	void readAhead(Runnable task) {
		current.set(this);
		try {
			task.run();
		}
		finally {
			current.remove();
			if (decide(Outcome.LEFT)) {
				this.listener.left();
			}
			this.work.complete(null);
		}
	}

	/**
	 * Admits the request: waits on the admitted thread for the work the request hands over.
	 * @return the work to run, or {@code null} when the request left the queue meanwhile
	 */
	Runnable admit() {
		if (!decide(Outcome.ADMITTED) && this.outcome.get() != Outcome.ADMITTED) {
			return null;
		}
		return this.work.join();
	}

	/**
	 * Refuses the request unless it was decided already.
	 * @return whether it was refused now
	 */
	boolean refuse(Refusal refusal) {
		this.refusal = refusal;
		return decide(Outcome.REFUSED);
	}

	private boolean decide(Outcome outcome) {
		if (this.outcome.compareAndSet(null, outcome)) {
			this.decided.complete(outcome);
			return true;
		}
		return false;
	}

	/**
	 * What the executor learns about its turns.
	 */
	interface Listener {

		/** Nothing to learn: a turn that never waited in a queue. */
		Listener NONE = () -> {
		};

		/**
		 * The request left the queue before its turn: it skipped it, or its task ended
		 * before the request took the turn.
		 */
		void left();

	}

	/**
	 * The rest of a request.
	 * @param <E> the checked exception it may throw
	 */
	@FunctionalInterface
	public interface Work<E extends Exception> {

		void run() throws E;

	}

	/**
	 * Runs the work and keeps what it threw for the thread that waits for it.
	 */
	private static final class Done implements Runnable {

		private final Work<?> request;

		private final CompletableFuture<Void> finished = new CompletableFuture<>();

		Done(Work<?> request) {
			this.request = request;
		}

		@Override
		public void run() {
			try {
				this.request.run();
				this.finished.complete(null);
			}
			catch (Throwable ex) {
				this.finished.completeExceptionally(ex);
			}
		}

		@SuppressWarnings("unchecked")
		<E extends Exception> void rethrow() throws E, InterruptedException {
			try {
				this.finished.get();
			}
			catch (ExecutionException ex) {
				Throwable failure = ex.getCause();
				if (failure instanceof RuntimeException runtime) {
					throw runtime;
				}
				if (failure instanceof Error error) {
					throw error;
				}
				throw (E) failure;
			}
		}

	}

}
