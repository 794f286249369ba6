package io.github.threadmodel.internal.handoff;

import java.util.function.UnaryOperator;

import io.github.threadmodel.executor.Refusal;
import io.github.threadmodel.executor.ThreadModelExecutor;

/**
 * What the starter's servlet filter and auto-configuration ask of the request executor to
 * read requests ahead of their turn. The executor registers its side here when its class
 * is initialized ({@link #register}), the way the JDK's own packages share what they keep
 * out of their API: so that these methods stay off {@link ThreadModelExecutor}'s public
 * API, which an application compiles against.
 */
public final class RequestHandOff {

	private static volatile Access access;

	private RequestHandOff() {
	}

	/**
	 * The turn of the request the current thread reads ahead.
	 * @return the turn, or {@code null} when the thread was admitted before it read the
	 * request (or runs no executor task)
	 */
	public static RequestTurn currentTurn() {
		return access().currentTurn();
	}

	/**
	 * Reads requests ahead of their turn: a task that would wait behind the model's limit
	 * starts at once on a virtual thread of its own with a {@link RequestTurn}, which the
	 * server's request handling then takes or skips. Only for an executor whose every task
	 * reaches code that does so; a task that ends without it gives its turn back. Beyond
	 * {@code limit} requests read ahead at once, and while an adaptive limit sees the heap
	 * under pressure, tasks wait unread as before: a request read ahead holds the server's
	 * buffers for it, and its thread's stack, while it waits.
	 * @param executor the request executor
	 * @param limit the most requests read ahead at once; 0 for none
	 */
	public static void readRequestsAhead(ThreadModelExecutor executor, int limit) {
		access().readRequestsAhead(executor, limit);
	}

	/**
	 * Runs the rest of a request that was read on a thread whose {@link RequestTurn} was
	 * used already (a later request on the same connection): it takes a turn of its own,
	 * as a new task of the executor, and the current thread waits until it is done.
	 * @param <E> the checked exception the work may throw
	 * @param executor the request executor
	 * @param request the rest of the request
	 * @param context carries this thread's context over to the thread that runs it
	 * @return the refusal when the executor refused it (the work did not run), or
	 * {@code null} once it ran
	 * @throws E what the work threw
	 * @throws InterruptedException if the thread is interrupted while it waits
	 */
	public static <E extends Exception> Refusal runInTurn(ThreadModelExecutor executor, RequestTurn.Work<E> request,
			UnaryOperator<Runnable> context) throws E, InterruptedException {
		return access().runInTurn(executor, request, context);
	}

	/**
	 * Registers the executor's side; called once, by {@link ThreadModelExecutor}.
	 * @param executorSide the executor's side
	 */
	public static void register(Access executorSide) {
		access = executorSide;
	}

	private static Access access() {
		Access registered = access;
		if (registered == null) {
			try {
				// initializing the executor's class registers its side
				Class.forName(ThreadModelExecutor.class.getName(), true, RequestHandOff.class.getClassLoader());
			}
			catch (ClassNotFoundException ex) {
				throw new IllegalStateException(ex);
			}
			registered = access;
		}
		return registered;
	}

	/**
	 * The executor's side of the hand-off.
	 */
	public interface Access {

		/** See {@link RequestHandOff#currentTurn()}. */
		RequestTurn currentTurn();

		/** See {@link RequestHandOff#readRequestsAhead}. */
		void readRequestsAhead(ThreadModelExecutor executor, int limit);

		/** See {@link RequestHandOff#runInTurn}. */
		<E extends Exception> Refusal runInTurn(ThreadModelExecutor executor, RequestTurn.Work<E> request,
				UnaryOperator<Runnable> context) throws E, InterruptedException;

	}

}
