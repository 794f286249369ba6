package io.github.threadmodel.autoconfigure;

import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.Executor;

import org.springframework.core.Ordered;
import org.springframework.core.task.AsyncTaskExecutor;
import org.springframework.web.reactive.config.BlockingExecutionConfigurer;
import org.springframework.web.reactive.config.WebFluxConfigurer;

/**
 * Runs WebFlux controller methods that do not return a reactive type on the request
 * executor, off the event loop. Ordered last so that it overrides Spring Boot's own
 * configurer, which does the same with the application task executor only when
 * {@code spring.threads.virtual.enabled} is set.
 */
public class ThreadModelWebFluxConfigurer implements WebFluxConfigurer, Ordered {

	private final AsyncTaskExecutor executor;

	/**
	 * Creates a configurer.
	 * @param executor the executor for blocking controller methods
	 */
	public ThreadModelWebFluxConfigurer(Executor executor) {
		this.executor = new TrampoliningExecutor(executor);
	}

	@Override
	public void configureBlockingExecution(BlockingExecutionConfigurer configurer) {
		configurer.setExecutor(this.executor);
	}

	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

	/**
	 * WebFlux runs a blocking handler with {@code subscribeOn(Schedulers.fromExecutor(executor))},
	 * which hands the executor two tasks per request: the subscription, then the demand
	 * that calls the handler. This executor runs a task handed over from inside one of its
	 * own tasks on the same thread, right after it (as Reactor's trampolining executor
	 * scheduler does), so one request is one task: counted once, waiting in the queue once.
	 */
	static final class TrampoliningExecutor implements AsyncTaskExecutor {

		private final ThreadLocal<Queue<Runnable>> pending = new ThreadLocal<>();

		private final Executor executor;

		TrampoliningExecutor(Executor executor) {
			this.executor = executor;
		}

		@Override
		public void execute(Runnable task) {
			Queue<Runnable> running = this.pending.get();
			if (running != null) {
				running.add(task);
				return;
			}
			this.executor.execute(() -> runWithFollowers(task));
		}

		private void runWithFollowers(Runnable task) {
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

	}

}
