package io.github.threadmodel.internal.servers;

import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.Executor;

import io.github.threadmodel.executor.Refusal;
import io.github.threadmodel.internal.overload.OverloadWebExceptionHandler;
import io.github.threadmodel.internal.overload.RefusedRequestException;

import org.springframework.core.task.AsyncTaskExecutor;
import org.springframework.core.task.TaskDecorator;

/**
 * WebFlux runs a blocking handler with {@code subscribeOn(Schedulers.fromExecutor(executor))},
 * which hands the executor two tasks per request: the subscription, then the demand
 * that calls the handler. This executor runs a task handed over from inside one of its
 * own tasks on the same thread, right after it (as Reactor's trampolining executor
 * scheduler does), so one request is one task: counted once, waiting in the queue once.
 * <p>
 * A task the request executor refused under overload ({@link Refusal}) hands nothing
 * on: WebFlux calls a blocking controller method only after one more hand-over
 * ({@code publishOn} in {@code InvocableHandlerMethod}), and refusing that one turns the
 * request into an error that {@link OverloadWebExceptionHandler} answers with 503. The
 * controller method is never called.
 */
public final class TrampoliningExecutor implements AsyncTaskExecutor {

	private final ThreadLocal<Queue<Runnable>> pending = new ThreadLocal<>();

	private final Executor executor;

	private final TaskDecorator taskDecorator;

	/**
	 * Creates the executor.
	 * @param executor the executor of each request's blocking work
	 * @param taskDecorator the decorator of each request's work, or {@code null} for none
	 */
	public TrampoliningExecutor(Executor executor, TaskDecorator taskDecorator) {
		this.executor = executor;
		this.taskDecorator = taskDecorator;
	}

	@Override
	public void execute(Runnable task) {
		Queue<Runnable> running = this.pending.get();
		if (running != null) {
			Refusal refusal = Refusal.current();
			if (refusal != null) {
				throw new RefusedRequestException(refusal);
			}
			running.add(task);
			return;
		}
		Runnable request = () -> runWithFollowers(task);
		// decorated as a whole: the tasks handed over from inside it run in the context
		// it was handed over with
		this.executor.execute((this.taskDecorator != null) ? this.taskDecorator.decorate(request) : request);
	}

	private void runWithFollowers(Runnable task) {
		if (Refusal.current() != null) {
			// Reactor hands an executor's exception to the thread's uncaught-exception
			// handler (Schedulers.handleError) before it signals the error downstream. This
			// thread is the refused request's own and ends with it; the refusal is expected.
			Thread.currentThread().setUncaughtExceptionHandler(TrampoliningExecutor::reportUnlessRefusal);
		}
		Queue<Runnable> followers = new ArrayDeque<>();
		this.pending.set(followers);
		try {
			for (Runnable next = task; next != null; next = followers.poll()) {
				next.run();
			}
		}
		finally {
			this.pending.remove();
		}
	}

	private static void reportUnlessRefusal(Thread thread, Throwable error) {
		if (RefusedRequestException.find(error) == null) {
			thread.getThreadGroup().uncaughtException(thread, error);
		}
	}

}
