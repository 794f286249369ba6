package io.github.threadmodel.executor;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;

import io.github.threadmodel.internal.handoff.RequestHandOff;
import io.github.threadmodel.internal.handoff.RequestTurn;

/**
 * The executor's side of a {@link RequestTurn}: the queue decides it (admitted, refused,
 * or left by the request), the admitted thread runs the work the request hands over.
 */
final class ReadAheadTurn implements RequestTurn {

	private static final ThreadLocal<ReadAheadTurn> current = new ThreadLocal<>();

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

	ReadAheadTurn(Listener listener) {
		this.listener = listener;
	}

	/** See {@link RequestHandOff#currentTurn()}. */
	static ReadAheadTurn current() {
		return current.get();
	}

	@Override
	public boolean isUnused() {
		return !this.used;
	}

	@Override
	public void skip() {
		this.used = true;
		if (decide(Outcome.LEFT)) {
			this.listener.left();
		}
		this.work.complete(null); // an admitted thread waiting for work gives its turn back
	}

	@Override
	public Refusal await() throws InterruptedException {
		this.used = true;
		try {
			return (this.decided.get() == Outcome.REFUSED) ? this.refusal : null;
		}
		catch (ExecutionException ex) {
			throw new IllegalStateException(ex.getCause());
		}
	}

	@Override
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
