package io.github.threadmodel.autoconfigure;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import io.github.threadmodel.actuate.ThreadModelEndpoint;
import io.github.threadmodel.executor.ExecutorSettings.FixedAdmission;
import io.github.threadmodel.executor.ExecutorSettings;
import io.github.threadmodel.executor.ThreadModel;
import io.github.threadmodel.executor.ThreadModelExecutor;
import io.github.threadmodel.internal.servers.ConnectionIntake;
import io.github.threadmodel.internal.servers.QueuedRequestsDrain;
import io.github.threadmodel.pinning.VirtualThreadPinning;
import io.github.threadmodel.testapp.TestServers;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.Async;
import org.springframework.scheduling.annotation.EnableAsync;

import static org.assertj.core.api.Assertions.assertThat;

@ExtendWith(OutputCaptureExtension.class)
class ThreadModelAutoConfigurationTests {

	private static final AutoConfigurations STARTER = TestServers.autoConfigurations();

	private final WebApplicationContextRunner servlet = new WebApplicationContextRunner().withConfiguration(STARTER)
		.withPropertyValues("management.endpoints.web.exposure.include=threadmodel");

	private final ReactiveWebApplicationContextRunner reactive = new ReactiveWebApplicationContextRunner()
		.withConfiguration(STARTER)
		.withPropertyValues("management.endpoints.web.exposure.include=threadmodel");

	@Test
	void defaultModelIsPlatform() {
		this.servlet.run((context) -> {
			assertThat(context.getBean(ThreadModelSettings.class))
				.extracting(ThreadModelSettings::model, ThreadModelSettings::modelSource, ThreadModelSettings::taskModel)
				.containsExactly(ThreadModel.PLATFORM, "default", ThreadModel.PLATFORM);
			assertThat(requestExecutor(context).getModel()).isEqualTo(ThreadModel.PLATFORM);
			assertThat(requestExecutor(context).getSettings().platform().maxThreads()).isEqualTo(200);
			assertThat(requestExecutor(context).getSettings().platform().minThreads()).isEqualTo(10);
		});
	}

	@Test
	void springVirtualThreadsPropertyMeansVirtualWhenModelIsUnset() {
		this.servlet.withPropertyValues("spring.threads.virtual.enabled=true").run((context) -> {
			assertThat(context.getBean(ThreadModelSettings.class))
				.extracting(ThreadModelSettings::model, ThreadModelSettings::modelSource, ThreadModelSettings::taskModel)
				.containsExactly(ThreadModel.VIRTUAL, "spring.threads.virtual.enabled", ThreadModel.VIRTUAL);
			assertThat(requestExecutor(context).getModel()).isEqualTo(ThreadModel.VIRTUAL);
		});
	}

	@Test
	void starterPropertyWinsAndWarnsOnceWhenBothDisagree(CapturedOutput output) {
		this.servlet.withPropertyValues("spring.threads.virtual.enabled=true", "app.threads.model=platform")
			.run((context) -> {
				assertThat(requestExecutor(context).getModel()).isEqualTo(ThreadModel.PLATFORM);
				assertThat(context.getBean(ThreadModelSettings.class).modelSource())
					.isEqualTo("app.threads.model");
			});
		assertThat(output).containsOnlyOnce("WARN")
			.contains("app.threads.model=platform and spring.threads.virtual.enabled=true disagree");
	}

	@Test
	void noWarningWhenBothAgree(CapturedOutput output) {
		this.servlet.withPropertyValues("spring.threads.virtual.enabled=true", "app.threads.model=virtual")
			.run((context) -> assertThat(requestExecutor(context).getModel()).isEqualTo(ThreadModel.VIRTUAL));
		assertThat(output).doesNotContain("disagree");
	}

	@Test
	void modelsAreReadInAnyCase() {
		this.servlet.withPropertyValues("app.threads.model=Virtual", "app.threads.tasks.model=PLATFORM")
			.run((context) -> assertThat(context.getBean(ThreadModelSettings.class))
				.extracting(ThreadModelSettings::model, ThreadModelSettings::modelSource, ThreadModelSettings::taskModel)
				.containsExactly(ThreadModel.VIRTUAL, "app.threads.model", ThreadModel.PLATFORM));
	}

	@Test
	void minThreadsDefaultsToMaxThreadsWhenThatIsLower() {
		this.servlet.withPropertyValues("app.threads.platform.max-threads=2")
			.run((context) -> assertThat(requestExecutor(context).getSettings().platform().minThreads()).isEqualTo(2));
	}

	@Test
	void taskExecutorFollowsTheServerModelUnlessSetItself() {
		this.servlet.withPropertyValues("app.threads.model=virtual").run((context) -> {
			assertThat(context.getBean("applicationTaskExecutor", ThreadModelExecutor.class).getModel())
				.isEqualTo(ThreadModel.VIRTUAL);
		});
		this.servlet.withPropertyValues("app.threads.model=virtual", "app.threads.tasks.model=platform")
			.run((context) -> {
				assertThat(requestExecutor(context).getModel()).isEqualTo(ThreadModel.VIRTUAL);
				assertThat(context.getBean("applicationTaskExecutor", ThreadModelExecutor.class).getModel())
					.isEqualTo(ThreadModel.PLATFORM);
			});
	}

	@Test
	void asyncMethodsRunOnTheTaskExecutorOfItsModel() {
		new ApplicationContextRunner().withConfiguration(STARTER)
			.withUserConfiguration(AsyncConfiguration.class)
			.withPropertyValues("app.threads.tasks.model=virtual")
			.run((context) -> {
				String thread = context.getBean(AsyncService.class).threadName().get(10, TimeUnit.SECONDS);
				assertThat(thread).startsWith("task-virtual-");
				assertThat(context).doesNotHaveBean(ThreadModelAutoConfiguration.REQUEST_EXECUTOR_BEAN_NAME);
			});
	}

	@Test
	void springBootTaskExecutorBacksOffForTheStarters() {
		this.servlet.run((context) -> {
			assertThat(context.getBean("applicationTaskExecutor")).isInstanceOf(ThreadModelExecutor.class);
			assertThat(context.getBean("taskExecutor")).isSameAs(context.getBean("applicationTaskExecutor"));
		});
	}

	@Test
	void usersOwnExecutorWinsOverTheTaskExecutor() {
		this.servlet.withUserConfiguration(UserExecutorConfiguration.class).run((context) -> {
			assertThat(context).doesNotHaveBean("applicationTaskExecutor");
			assertThat(context.getBean(Executor.class)).isSameAs(context.getBean("userExecutor"));
			// the request executor is still there, but never injected by type
			assertThat(requestExecutor(context)).isNotNull();
			assertThat(context.getBean(ThreadModelEndpoint.class).threadModel().tasks()).isNull();
		});
	}

	@Test
	void usersOwnRequestExecutorWins() {
		this.servlet.withUserConfiguration(UserRequestExecutorConfiguration.class).run((context) -> {
			assertThat(requestExecutor(context).getThreadNamePrefix()).isEqualTo("mine-");
			assertThat(context.getBean(ThreadModelEndpoint.class).threadModel().requests().maxConcurrency())
				.isEqualTo(7);
		});
	}

	@Test
	void requestsWaitForATurnAtMostThirtySecondsUnlessTheQueueTimeoutIsSet() {
		this.servlet.withPropertyValues("app.threads.model=virtual")
			.run((context) -> assertThat(context.getBean(ThreadModelSettings.class).overload().queueTimeout())
				.isEqualTo(Duration.ofSeconds(30)));
		this.servlet.withPropertyValues("app.threads.model=virtual", "app.threads.virtual.queue-timeout=2m")
			.run((context) -> assertThat(context.getBean(ThreadModelSettings.class).overload().queueTimeout())
				.isEqualTo(Duration.ofMinutes(2)));
	}

	@Test
	void queueTimeoutWithoutALimitIsSaidToHaveNoEffect(CapturedOutput output) {
		this.servlet.withConfiguration(AutoConfigurations.of(ThreadModelPinningAutoConfiguration.class))
			.withPropertyValues("app.threads.virtual.queue-timeout=200ms", "app.threads.virtual.admission=unlimited")
			.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(VirtualThreadPinning.class));
		assertThat(output).containsOnlyOnce("app.threads.virtual.queue-timeout has no effect with "
				+ "app.threads.virtual.admission=unlimited");
		this.servlet.withPropertyValues("app.threads.virtual.queue-timeout=200ms", "app.threads.virtual.max-concurrency=5")
			.run((context) -> assertThat(context).hasNotFailed());
		this.servlet.withPropertyValues("app.threads.virtual.queue-timeout=200ms")
			.run((context) -> assertThat(context).hasNotFailed());
		assertThat(output).containsOnlyOnce("has no effect with");
	}

	@Test
	void requestsOnVirtualThreadsGetTheAdaptiveLimitByDefaultAndTasksNone() {
		this.servlet.withPropertyValues("app.threads.model=virtual").run((context) -> {
			assertThat(requestExecutor(context).admission()).satisfies((admission) -> {
				assertThat(admission.mode()).isEqualTo("adaptive");
				// it starts at what the heap's room holds, within the bounds
				assertThat(admission.limit()).isBetween(20, 10_000);
				assertThat(admission.minLimit()).isEqualTo(20);
				assertThat(admission.maxLimit()).isEqualTo(10_000);
				assertThat(admission.heapThreshold()).isEqualTo(0.8);
			});
			assertThat(context.getBean("applicationTaskExecutor", ThreadModelExecutor.class).admission().mode())
				.isEqualTo("unlimited");
		});
	}

	@Test
	void adaptiveLimitTakesItsBounds() {
		this.servlet
			.withPropertyValues("app.threads.model=virtual", "app.threads.virtual.adaptive.min-limit=50",
					"app.threads.virtual.adaptive.max-limit=400", "app.threads.virtual.adaptive.heap-threshold=0.7")
			.run((context) -> assertThat(requestExecutor(context).admission()).satisfies((admission) -> {
				assertThat(admission.limit()).isBetween(50, 400);
				assertThat(admission.minLimit()).isEqualTo(50);
				assertThat(admission.maxLimit()).isEqualTo(400);
				assertThat(admission.heapThreshold()).isEqualTo(0.7);
			}));
		this.servlet
			.withPropertyValues("app.threads.model=virtual", "app.threads.virtual.adaptive.min-limit=60",
					"app.threads.virtual.adaptive.max-limit=60")
			.run((context) -> assertThat(requestExecutor(context).admission().limit()).isEqualTo(60));
	}

	@Test
	void maxConcurrencyIsAFixedLimitAndUnlimitedIsNone() {
		this.servlet.withPropertyValues("app.threads.model=virtual", "app.threads.virtual.max-concurrency=30")
			.run((context) -> assertThat(requestExecutor(context).admission()).satisfies((admission) -> {
				assertThat(admission.mode()).isEqualTo("fixed");
				assertThat(admission.limit()).isEqualTo(30);
			}));
		this.servlet.withPropertyValues("app.threads.model=virtual", "app.threads.virtual.admission=unlimited")
			.run((context) -> assertThat(requestExecutor(context).admission().limit()).isNull());
	}

	@Test
	void anAdmissionOtherThanFixedBesideMaxConcurrencyStopsStartup() {
		this.servlet
			.withPropertyValues("app.threads.virtual.admission=adaptive", "app.threads.virtual.max-concurrency=30")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessageContaining("app.threads.virtual.admission")
				.hasMessageContaining("remove max-concurrency for an adaptive or no limit"));
	}

	@Test
	void gracefulShutdownFinishesQueuedRequestsWithinTheShutdownTimeout() {
		this.servlet.withPropertyValues("spring.lifecycle.timeout-per-shutdown-phase=7s")
			.run((context) -> assertThat(context).getBean(QueuedRequestsDrain.class)
				.hasFieldOrPropertyWithValue("timeout", Duration.ofSeconds(7)));
		this.servlet.run((context) -> assertThat(context).getBean(QueuedRequestsDrain.class)
			.hasFieldOrPropertyWithValue("timeout", Duration.ofSeconds(30)));
		this.servlet.withPropertyValues("server.shutdown=immediate")
			.run((context) -> assertThat(context).doesNotHaveBean(QueuedRequestsDrain.class));
	}

	@Test
	void nonWebApplicationHasNoRequestExecutorNorEndpoint() {
		new ApplicationContextRunner().withConfiguration(STARTER).run((context) -> {
			assertThat(context).hasNotFailed()
				.doesNotHaveBean(ThreadModelAutoConfiguration.REQUEST_EXECUTOR_BEAN_NAME)
				.doesNotHaveBean(ThreadModelEndpoint.class)
				.hasBean("applicationTaskExecutor");
		});
	}

	@Test
	void endpointNeedsActuatorAndExposure() {
		this.servlet.run((context) -> assertThat(context).hasSingleBean(ThreadModelEndpoint.class));
		this.servlet.withClassLoader(new FilteredClassLoader(Endpoint.class))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(ThreadModelEndpoint.class));
		new WebApplicationContextRunner().withConfiguration(STARTER)
			.run((context) -> assertThat(context).doesNotHaveBean(ThreadModelEndpoint.class));
	}

	@Test
	void metricsNeedMicrometer() {
		this.servlet.run((context) -> {
			assertThat(context).hasSingleBean(ThreadModelMetrics.class);
			assertThat(context.getBean(MeterRegistry.class)
				.get("executor.queued")
				.tag("name", ThreadModelAutoConfiguration.REQUEST_EXECUTOR_BEAN_NAME)
				.gauge()
				.value()).isZero();
			assertThat(ThreadModelMetrics.REQUEST_EXECUTOR_NAME)
				.isEqualTo(ThreadModelAutoConfiguration.REQUEST_EXECUTOR_BEAN_NAME);
			assertThat(ThreadModelMetrics.TASK_EXECUTOR_NAME)
				.isEqualTo(TaskExecutionAutoConfiguration.APPLICATION_TASK_EXECUTOR_BEAN_NAME);
		});
		this.servlet.withClassLoader(new FilteredClassLoader(MeterRegistry.class))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(ThreadModelMetrics.class));
	}

	@Test
	void acceptBacklogIsCappedByTheOperatingSystem() {
		this.servlet.withPropertyValues("app.threads.connections.accept-backlog=1000000").run((context) -> {
			ConnectionIntake intake = context.getBean(ConnectionIntake.class);
			assertThat(intake.somaxconn()).as("Linux reports net.core.somaxconn").isGreaterThanOrEqualTo(128);
			assertThat(intake.acceptBacklog()).isEqualTo(intake.somaxconn());
		});
	}

	private static ThreadModelExecutor requestExecutor(ApplicationContext context) {
		return context.getBean(ThreadModelAutoConfiguration.REQUEST_EXECUTOR_BEAN_NAME, ThreadModelExecutor.class);
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAsync
	static class AsyncConfiguration {

		@Bean
		AsyncService asyncService() {
			return new AsyncService();
		}

	}

	static class AsyncService {

		@Async
		CompletableFuture<String> threadName() {
			return CompletableFuture.completedFuture(Thread.currentThread().getName());
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserExecutorConfiguration {

		@Bean(destroyMethod = "shutdown")
		ExecutorService userExecutor() {
			return Executors.newSingleThreadExecutor();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserRequestExecutorConfiguration {

		@Bean(name = ThreadModelAutoConfiguration.REQUEST_EXECUTOR_BEAN_NAME, defaultCandidate = false)
		ThreadModelExecutor threadModelRequestExecutor() {
			return new ThreadModelExecutor("mine-", new ExecutorSettings(ThreadModel.VIRTUAL, null,
					new FixedAdmission(7)));
		}

	}

}
