package io.github.threadmodel.internal.handoff;

import java.util.function.UnaryOperator;

import io.github.threadmodel.executor.Refusal;

/**
 * The turn of a request that the request executor reads ahead: a task that would wait
 * behind the model's limit starts at once on a virtual thread of its own, so that the
 * server reads the request, while its place in the queue stays where it arrived. Code on
 * that thread that knows the request (the starter's servlet filter) then either lets it
 * {@link #skip() skip} the queue (a health probe), or {@link #await() waits} for the turn
 * and {@link #runAdmitted runs} the rest of the request on the thread of the model that
 * admitted it, holding the limit as any task does. Only the executor makes turns; code
 * finds the one of its thread with {@link RequestHandOff#currentTurn()}.
 */
public interface RequestTurn {

	/**
	 * Whether the request on this thread may still take or skip this turn: a later
	 * request read on the same thread (a kept-alive connection) has to ask the executor
	 * for a turn of its own ({@link RequestHandOff#runInTurn}).
	 * @return whether the turn is unused
	 */
	boolean isUnused();

	/**
	 * Leaves the queue without waiting and without taking a turn, for a request that must
	 * never wait (a health probe). It then runs on this thread, outside the limits.
	 */
	void skip();

	/**
	 * Waits until the queue admits the request or refuses it.
	 * @return the refusal, or {@code null} once admitted
	 * @throws InterruptedException if the thread is interrupted while it waits
	 */
	Refusal await() throws InterruptedException;

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
	<E extends Exception> void runAdmitted(Work<E> request, UnaryOperator<Runnable> context)
			throws E, InterruptedException;

	/**
	 * The rest of a request.
	 * @param <E> the checked exception it may throw
	 */
	@FunctionalInterface
	interface Work<E extends Exception> {

		void run() throws E;

	}

}
