package io.github.threadmodel.autoconfigure;

import io.github.threadmodel.ThreadModelExecutor;

import org.springframework.core.Ordered;
import org.springframework.web.reactive.config.BlockingExecutionConfigurer;
import org.springframework.web.reactive.config.WebFluxConfigurer;

/**
 * Runs WebFlux controller methods that do not return a reactive type on the request
 * executor, off the event loop. Ordered last so that it overrides Spring Boot's own
 * configurer, which does the same with the application task executor only when
 * {@code spring.threads.virtual.enabled} is set.
 */
public class ThreadModelWebFluxConfigurer implements WebFluxConfigurer, Ordered {

	private final ThreadModelExecutor executor;

	/**
	 * Creates a configurer.
	 * @param executor the executor for blocking controller methods
	 */
	public ThreadModelWebFluxConfigurer(ThreadModelExecutor executor) {
		this.executor = executor;
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
