package io.github.threadmodel.autoconfigure;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.stream.Stream;

import io.github.threadmodel.internal.actuate.ServerKind;
import io.github.threadmodel.executor.ExecutorSettings.TaskLimit;
import io.github.threadmodel.executor.ThreadModelExecutor;
import io.github.threadmodel.executor.ThreadModelSwitcher;
import io.github.threadmodel.internal.auto.AutoThreadModel;
import io.github.threadmodel.internal.lanes.Lanes;
import io.github.threadmodel.internal.line.SpringBootLine;
import io.github.threadmodel.internal.requests.RequestCounts;
import io.github.threadmodel.internal.servers.ConnectionIntake;
import io.github.threadmodel.internal.servers.QueuedRequestsDrain;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.context.event.ApplicationStartedEvent;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.core.task.TaskDecorator;
import org.springframework.scheduling.annotation.AsyncAnnotationBeanPostProcessor;

/**
 * Auto-configuration of the executors whose thread model the starter controls: the one
 * the web server hands requests to, and the application task executor.
 * @since 0.1.0
 */
@AutoConfiguration(before = TaskExecutionAutoConfiguration.class)
@EnableConfigurationProperties(ThreadModelProperties.class)
public final class ThreadModelAutoConfiguration {

	/**
	 * Name of the executor that runs the web server's request handling. It is not a
	 * default candidate for injection by type, so that it neither stands in for the
	 * application's {@link Executor} nor makes Spring Boot's executor back off.
	 */
	public static final String REQUEST_EXECUTOR_BEAN_NAME = "threadModelRequestExecutor";

	private static final String SHUTDOWN_TIMEOUT_PROPERTY = "spring.lifecycle.timeout-per-shutdown-phase";

	/** Spring Boot's default for {@value #SHUTDOWN_TIMEOUT_PROPERTY}. */
	private static final Duration DEFAULT_SHUTDOWN_TIMEOUT = Duration.ofSeconds(30);

	/**
	 * Every {@code app.threads.*} value read and checked, once, before anything is made
	 * from it, and the models chosen.
	 */
	@Bean
	@ConditionalOnMissingBean
	ThreadModelSettings threadModelSettings(ThreadModelProperties properties, Environment environment) {
		ThreadModelSettings settings = new ThreadModelSettings(properties, environment);
		settings.warnIfModelPropertiesDisagree();
		return settings;
	}

	@Bean
	@ConditionalOnMissingBean
	ConnectionIntake threadModelConnectionIntake(ThreadModelSettings settings, Environment environment) {
		return new ConnectionIntake(settings.acceptBacklog(), environment);
	}

	@Bean(name = REQUEST_EXECUTOR_BEAN_NAME, defaultCandidate = false)
	@ConditionalOnMissingBean(name = REQUEST_EXECUTOR_BEAN_NAME)
	@ConditionalOnWebApplication
	ThreadModelExecutor threadModelRequestExecutor(ThreadModelSettings settings) {
		return new ThreadModelExecutor("request-", settings.requestExecutor(),
				settings.overload());
	}

	/**
	 * The one object that holds the executors, for everything else that needs them.
	 */
	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnWebApplication
	ThreadModelExecutors threadModelExecutors(@Qualifier(REQUEST_EXECUTOR_BEAN_NAME) ThreadModelExecutor requests,
			@Qualifier(TaskExecutionAutoConfiguration.APPLICATION_TASK_EXECUTOR_BEAN_NAME) ObjectProvider<ThreadModelExecutor> tasks,
			ThreadModelProperties properties) {
		return new ThreadModelExecutors(requests, tasks.getIfAvailable(), properties.getTasks().getModel() == null);
	}

	/**
	 * The HTTP requests, counted by the starter's first servlet filter or its decorator of
	 * WebFlux's {@code HttpHandler} ({@link ThreadModelRequestsAutoConfiguration}).
	 */
	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnWebApplication
	RequestCounts threadModelRequestCounts() {
		return new RequestCounts();
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnWebApplication
	ThreadModelSwitcher threadModelSwitcher(ThreadModelExecutors executors, ThreadModelProperties properties) {
		return new ThreadModelSwitcher(executors.requests(), executors.followingTasks(),
				properties.getSwitching().isEnabled());
	}

	/**
	 * {@code app.threads.model=auto}: switches the request executor, and the task
	 * executor when it follows the server's model, as the measured workload asks.
	 */
	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnWebApplication
	@ConditionalOnProperty(name = ThreadModelSettings.MODEL_PROPERTY, havingValue = "auto")
	AutoThreadModel autoThreadModel(ThreadModelSwitcher switcher, ThreadModelExecutors executors,
			ThreadModelSettings settings, ThreadModelProperties properties) {
		return new AutoThreadModel(switcher, executors.requests(), executors.followingTasks(),
				settings.autoThresholds(), properties.getAuto().getWindow(), Clock.systemUTC(),
				"POST {\"model\":\"auto\"} to /actuator/threadmodel, or app.threads.model=auto in a configuration "
						+ "change, resumes it");
	}

	/**
	 * Logs what the starter applied once the application has started, and the server
	 * thread properties it makes ineffective.
	 */
	@Bean
	@ConditionalOnWebApplication
	ApplicationListener<ApplicationStartedEvent> threadModelStartupReport(ThreadModelSettings settings,
			ThreadModelExecutors executors, ConnectionIntake intake, ObjectProvider<ServerKind> serverKind,
			Environment environment) {
		return new ThreadModelStartupReport(settings, executors, intake, serverKind, environment);
	}

	/**
	 * Graceful shutdown lets the requests that wait for a thread run first, those waiting
	 * in a lane's queue too. Spring Boot's graceful shutdown is the default;
	 * {@code server.shutdown=immediate} turns both off.
	 */
	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnWebApplication
	@ConditionalOnProperty(name = "server.shutdown", havingValue = "graceful", matchIfMissing = true)
	QueuedRequestsDrain threadModelQueuedRequestsDrain(ThreadModelExecutors executors, ObjectProvider<Lanes> lanes,
			ConnectionIntake intake, Environment environment) {
		Duration timeout = Binder.get(environment)
			.bind(SHUTDOWN_TIMEOUT_PROPERTY, Duration.class)
			.orElse(DEFAULT_SHUTDOWN_TIMEOUT);
		return new QueuedRequestsDrain(() -> Stream
			.concat(Stream.of(executors.requests()), lanes.getIfAvailable(Lanes::none).executors())
			.toList(), intake, timeout);
	}

	/**
	 * The application task executor, in place of Spring Boot's, which backs off when it
	 * sees this one. Like Spring Boot's, it is not created when the application has an
	 * {@link Executor} of its own, and it applies the {@link TaskDecorator} beans and the
	 * {@code spring.task.execution.*} settings that still mean something for it
	 * ({@link SpringTaskExecution}). Its bound is its own ({@code app.threads.tasks.*}),
	 * never the request limit. With {@code spring.task.execution.mode=force} the application
	 * asks for Spring Boot's own executor, which then runs its tasks.
	 */
	@Bean(name = { TaskExecutionAutoConfiguration.APPLICATION_TASK_EXECUTOR_BEAN_NAME,
			AsyncAnnotationBeanPostProcessor.DEFAULT_TASK_EXECUTOR_BEAN_NAME })
	@ConditionalOnMissingBean(Executor.class)
	@ConditionalOnProperty(name = "spring.task.execution.mode", havingValue = "auto", matchIfMissing = true)
	ThreadModelExecutor applicationTaskExecutor(ThreadModelSettings settings, ThreadModelProperties properties, ObjectProvider<TaskDecorator> taskDecorators, Environment environment) {
		SpringTaskExecution spring = new SpringTaskExecution(environment);
		ThreadModelProperties.Tasks tasks = properties.getTasks();
		TaskLimit limit = spring.taskLimit(tasks);
		spring.warnUnhonoured(tasks);
		ThreadModelExecutor executor = new ThreadModelExecutor(spring.threadNamePrefix(),
				settings.taskExecutor((limit != null) ? limit.maxConcurrency() : null),
				limit);
		executor.setTaskDecorator(TaskDecorators.of(taskDecorators));
		executor.setTerminationTimeout(spring.terminationTimeout());
		return executor;
	}

	/**
	 * With {@code spring.task.execution.mode=force} Spring Boot's own application task
	 * executor runs the application tasks: startup stops where it would run them without
	 * the {@link TaskDecorator} beans, once every bean is made.
	 */
	@Bean
	@ConditionalOnProperty(name = "spring.task.execution.mode", havingValue = "force")
	SmartInitializingSingleton threadModelForcedTaskExecutorCheck(ListableBeanFactory beanFactory) {
		return () -> TaskDecorators.requireAppliedBySpringBoot(beanFactory,
				SpringBootLine.running(getClass().getClassLoader()));
	}

}
