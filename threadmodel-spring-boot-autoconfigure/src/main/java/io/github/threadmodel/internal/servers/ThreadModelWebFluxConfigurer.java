package io.github.threadmodel.internal.servers;

import java.util.concurrent.Executor;

import org.springframework.core.Ordered;
import org.springframework.core.task.AsyncTaskExecutor;
import org.springframework.core.task.TaskDecorator;
import org.springframework.web.reactive.config.BlockingExecutionConfigurer;
import org.springframework.web.reactive.config.WebFluxConfigurer;

/**
 * Runs WebFlux controller methods that do not return a reactive type on the request
 * executor, off the event loop. Ordered last so that it overrides Spring Boot's own
 * configurer, which does the same with the application task executor only when
 * {@code spring.threads.virtual.enabled} is set. Like that executor, it applies the
 * application's {@link TaskDecorator}s, so that, for example, the request's tracing context
 * follows a controller method onto the thread that runs it.
 */
public class ThreadModelWebFluxConfigurer implements WebFluxConfigurer, Ordered {

	private final AsyncTaskExecutor executor;

	/**
	 * Creates a configurer.
	 * @param executor the executor for blocking controller methods
	 * @param taskDecorator the decorator of each request's work, or {@code null} for none
	 */
	public ThreadModelWebFluxConfigurer(Executor executor, TaskDecorator taskDecorator) {
		this.executor = new TrampoliningExecutor(executor, taskDecorator);
	}

	@Override
	public void configureBlockingExecution(BlockingExecutionConfigurer configurer) {
		configurer.setExecutor(this.executor);
	}

	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

}
