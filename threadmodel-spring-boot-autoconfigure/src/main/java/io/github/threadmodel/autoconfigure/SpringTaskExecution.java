package io.github.threadmodel.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import io.github.threadmodel.executor.ExecutorSettings.TaskLimit;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.boot.autoconfigure.task.TaskExecutionProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.core.env.Environment;

/**
 * The {@code spring.task.execution.*} settings of the application task executor Spring
 * Boot would have made, as they apply to the starter's, which takes its place: the thread
 * name prefix, the wait for running tasks at shutdown, and the concurrency limit of the
 * {@code simple} executor, which is the starter's task limit. The rest sizes or stops a
 * pool the starter does not have, and one WARN names each of them the user set.
 * <p>
 * Bound with Spring Boot's own {@link TaskExecutionProperties}, whose getters used here
 * are the same on both Boot lines.
 */
final class SpringTaskExecution {

	private static final String PREFIX = "spring.task.execution.";

	static final String CONCURRENCY_LIMIT = PREFIX + "simple.concurrency-limit";

	static final String REJECT_WHEN_LIMIT_REACHED = PREFIX + "simple.reject-tasks-when-limit-reached";

	static final String MAX_CONCURRENCY = "app.threads.tasks.max-concurrency";

	static final String QUEUE_TIMEOUT = "app.threads.tasks.queue-timeout";

	/**
	 * The properties that size or stop Spring Boot's pool, or cancel its tasks, which the
	 * starter's task executor cannot honour.
	 */
	private static final List<String> UNHONOURED = Stream
		.of("pool.core-size", "pool.max-size", "pool.queue-capacity", "pool.keep-alive",
				"pool.allow-core-thread-timeout", "pool.shutdown.accept-tasks-after-context-close",
				"simple.cancel-remaining-tasks-on-close")
		.map((name) -> PREFIX + name)
		.toList();

	private static final Log logger = LogFactory.getLog(SpringTaskExecution.class);

	private final TaskExecutionProperties properties;

	private final Environment environment;

	SpringTaskExecution(Environment environment) {
		this.environment = environment;
		this.properties = Binder.get(environment)
			.bind("spring.task.execution", TaskExecutionProperties.class)
			.orElseGet(TaskExecutionProperties::new);
	}

	/**
	 * The start of the task threads' names ({@code spring.task.execution.thread-name-prefix},
	 * {@code task-} by default), followed by the model and a number.
	 * @return the prefix
	 */
	String threadNamePrefix() {
		return this.properties.getThreadNamePrefix();
	}

	/**
	 * How long closing the executor waits for its tasks: {@code await-termination-period}
	 * when {@code spring.task.execution.shutdown.await-termination} is true, as Spring
	 * Boot's executors do; zero otherwise.
	 * @return the wait
	 */
	Duration terminationTimeout() {
		TaskExecutionProperties.Shutdown shutdown = this.properties.getShutdown();
		Duration period = shutdown.getAwaitTerminationPeriod();
		return (shutdown.isAwaitTermination() && period != null) ? period : Duration.ZERO;
	}

	/**
	 * The task limit: {@code app.threads.tasks.*}, or else Spring Boot's
	 * {@code simple.concurrency-limit}, with {@code reject-tasks-when-limit-reached} as a
	 * queue timeout of zero.
	 * @param tasks the starter's task properties, checked already
	 * @return the limit, or {@code null} for none
	 */
	TaskLimit taskLimit(ThreadModelProperties.Tasks tasks) {
		Integer maxConcurrency = tasks.getMaxConcurrency();
		if (maxConcurrency == null) {
			maxConcurrency = springConcurrencyLimit();
		}
		Duration queueTimeout = tasks.getQueueTimeout();
		if (queueTimeout == null && this.properties.getSimple().isRejectTasksWhenLimitReached()) {
			queueTimeout = Duration.ZERO;
		}
		if (maxConcurrency == null) {
			if (tasks.getQueueTimeout() != null) {
				logger.warn(QUEUE_TIMEOUT + " has no effect without " + MAX_CONCURRENCY
						+ ": no application task waits for a turn");
			}
			return null;
		}
		return new TaskLimit(maxConcurrency, queueTimeout);
	}

	/**
	 * Spring Boot's concurrency limit: -1 (or any negative) for none, as Spring's
	 * executor reads it; 0, which would refuse every task, is not allowed.
	 */
	private Integer springConcurrencyLimit() {
		Integer limit = this.properties.getSimple().getConcurrencyLimit();
		if (limit != null && limit == 0) {
			throw new InvalidConfigurationPropertyValueException(CONCURRENCY_LIMIT, limit,
					"Allowed: a whole number of 1 or more, or -1 for no limit (0 would refuse every application "
							+ "task); or set " + MAX_CONCURRENCY + " instead.");
		}
		return (limit != null && limit > 0) ? limit : null;
	}

	/**
	 * Logs one WARN naming each {@code spring.task.execution.*} property the user set that
	 * the starter's task executor cannot honour, or that a starter property overrides.
	 * @param tasks the starter's task properties
	 */
	void warnUnhonoured(ThreadModelProperties.Tasks tasks) {
		List<String> set = new ArrayList<>(UNHONOURED.stream().filter(this.environment::containsProperty).toList());
		if (tasks.getMaxConcurrency() != null && this.environment.containsProperty(CONCURRENCY_LIMIT)) {
			set.add(CONCURRENCY_LIMIT + " (" + MAX_CONCURRENCY + " is set)");
		}
		if (tasks.getQueueTimeout() != null && this.environment.containsProperty(REJECT_WHEN_LIMIT_REACHED)) {
			set.add(REJECT_WHEN_LIMIT_REACHED + " (" + QUEUE_TIMEOUT + " is set)");
		}
		if (!set.isEmpty()) {
			logger.warn(String.join(", ", set) + ((set.size() == 1) ? " has" : " have")
					+ " no effect: the starter's application task executor replaces Spring Boot's; it takes "
					+ "app.threads.tasks.model, " + MAX_CONCURRENCY + " and " + QUEUE_TIMEOUT + ", and from "
					+ "spring.task.execution the thread-name-prefix, shutdown.await-termination(-period), "
					+ "simple.concurrency-limit and simple.reject-tasks-when-limit-reached");
		}
	}

}
