package io.github.threadmodel.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import io.github.threadmodel.executor.ExecutorSettings.TaskLimit;
import io.github.threadmodel.executor.ThreadModel;
import io.github.threadmodel.executor.ThreadModelExecutor;
import io.github.threadmodel.executor.ThreadModelSwitcher;
import io.github.threadmodel.internal.line.SpringBootLine;
import io.github.threadmodel.testapp.TestServers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Primary;
import org.springframework.core.annotation.Order;
import org.springframework.core.task.TaskDecorator;
import org.springframework.core.task.support.CompositeTaskDecorator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * The starter's application task executor takes what Spring Boot's would have taken: the
 * {@link TaskDecorator} beans (every one, in order, as Boot 4's, on both lines), and the
 * {@code spring.task.execution.*} settings that still mean something; its bound is
 * {@code app.threads.tasks.*}, never the request limit.
 */
@ExtendWith(OutputCaptureExtension.class)
class ApplicationTaskExecutorConfigurationTests {

	private final WebApplicationContextRunner servlet = new WebApplicationContextRunner()
		.withConfiguration(TestServers.autoConfigurations());

	@Test
	void springBootsForceModeGetsSpringBootsOwnExecutor() {
		this.servlet.withPropertyValues("spring.task.execution.mode=force").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean("applicationTaskExecutor")).isNotInstanceOf(ThreadModelExecutor.class);
			assertThat(context.getBean("threadModelRequestExecutor")).isInstanceOf(ThreadModelExecutor.class);
		});
	}

	@Test
	void aSingleDecoratorIsAppliedOnEveryLine() {
		this.servlet.withUserConfiguration(OneDecorator.class).run((context) -> {
			assertThat(tasks(context).getTaskDecorator()).isSameAs(context.getBean("first"));
			assertThat(marksOfATask(context)).containsExactly("first");
		});
	}

	/**
	 * Every decorator, in order, on both lines (Spring Boot 3.5's own executor would apply
	 * none of several).
	 */
	@Test
	void severalDecoratorsAreAppliedInOrderOnEveryLine() {
		this.servlet.withUserConfiguration(TwoDecorators.class).run((context) -> {
			assertThat(tasks(context).getTaskDecorator()).isInstanceOf(CompositeTaskDecorator.class);
			// in order: each wraps the ones before it, so the last one runs first
			assertThat(marksOfATask(context)).containsExactly("second", "first");
		});
	}

	/**
	 * With {@code spring.task.execution.mode=force} Spring Boot's own executor runs the
	 * tasks: on Boot 4 with every decorator, on Boot 3.5 with a unique one only, so several
	 * stop startup there.
	 */
	@Test
	void severalDecoratorsThatSpringBootsForcedExecutorWouldDropStopStartup() {
		this.servlet.withPropertyValues("spring.task.execution.mode=force")
			.withUserConfiguration(TwoDecorators.class)
			.run((context) -> {
				if (TestServers.LINE == SpringBootLine.BOOT_4) {
					assertThat(context).hasNotFailed();
				}
				else {
					assertThat(context).getFailure()
						.isInstanceOf(UnappliedTaskDecoratorsException.class)
						.hasMessageContaining("[second, first]");
				}
			});
		this.servlet.withPropertyValues("spring.task.execution.mode=force")
			.withUserConfiguration(OneDecorator.class)
			.run((context) -> assertThat(context).hasNotFailed());
		this.servlet.withPropertyValues("spring.task.execution.mode=force")
			.withUserConfiguration(TwoDecorators.class, PrimaryDecorator.class)
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void theFailureAnalysisSaysWhatToDo(CapturedOutput output) {
		SpringApplication application = new SpringApplication(ForcedApp.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		if (TestServers.LINE == SpringBootLine.BOOT_4) {
			application.run("--spring.task.execution.mode=force").close();
			return;
		}
		assertThatException().isThrownBy(() -> application.run("--spring.task.execution.mode=force"));
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("on Spring Boot 3.5 it applies a TaskDecorator only when there is one: none of the "
					+ "application's 2 TaskDecorator beans (second, first) would run around @Async methods")
			.contains("Remove spring.task.execution.mode=force, so that the thread-model starter's application "
					+ "task executor applies every TaskDecorator bean, in order");
	}

	@Test
	void theTaskBoundIsItsOwnAndNeverTheRequestLimit() {
		this.servlet.withPropertyValues("app.threads.model=virtual", "app.threads.virtual.max-concurrency=100")
			.run((context) -> {
				assertThat(tasks(context).getTaskLimit()).isNull();
				assertThat(tasks(context).stats().maxConcurrency()).isNull();
			});
		this.servlet.withPropertyValues("app.threads.model=platform", "app.threads.platform.max-threads=16")
			.run((context) -> {
				assertThat(tasks(context).getTaskLimit()).isNull();
				assertThat(tasks(context).getSettings().platform().maxThreads()).isEqualTo(Integer.MAX_VALUE);
				assertThat(tasks(context).stats().maxPoolSize()).isNull();
			});
		this.servlet
			.withPropertyValues("app.threads.model=platform", "app.threads.tasks.max-concurrency=8",
					"app.threads.tasks.queue-timeout=500ms")
			.run((context) -> {
				assertThat(tasks(context).getTaskLimit()).isEqualTo(new TaskLimit(8, Duration.ofMillis(500)));
				assertThat(tasks(context).getSettings().platform().maxThreads()).isEqualTo(8);
				assertThat(tasks(context).getSettings().platform().minThreads()).isEqualTo(8);
			});
	}

	@Test
	void springBootsSimpleConcurrencyLimitIsTheTaskBoundUnlessTheStartersIsSet(CapturedOutput output) {
		this.servlet
			.withPropertyValues("spring.task.execution.simple.concurrency-limit=4",
					"spring.task.execution.simple.reject-tasks-when-limit-reached=true")
			.run((context) -> assertThat(tasks(context).getTaskLimit()).isEqualTo(new TaskLimit(4, Duration.ZERO)));
		this.servlet.withPropertyValues("spring.task.execution.simple.concurrency-limit=-1")
			.run((context) -> assertThat(tasks(context).getTaskLimit()).isNull());
		assertThat(output).doesNotContain("has no effect").doesNotContain("have no effect");
		this.servlet
			.withPropertyValues("spring.task.execution.simple.concurrency-limit=4",
					"app.threads.tasks.max-concurrency=6")
			.run((context) -> assertThat(tasks(context).getTaskLimit()).isEqualTo(new TaskLimit(6, null)));
		assertThat(output).containsOnlyOnce("spring.task.execution.simple.concurrency-limit "
				+ "(app.threads.tasks.max-concurrency is set) has no effect");
	}

	@Test
	void springBootsThreadNamePrefixAndShutdownWaitAreHonoured() {
		this.servlet
			.withPropertyValues("app.threads.model=virtual", "spring.task.execution.thread-name-prefix=work-",
					"spring.task.execution.shutdown.await-termination=true",
					"spring.task.execution.shutdown.await-termination-period=5s")
			.run((context) -> {
				ThreadModelExecutor tasks = tasks(context);
				assertThat(tasks.getThreadNamePrefix()).isEqualTo("work-");
				CompletableFuture<String> thread = new CompletableFuture<>();
				tasks.execute(() -> thread.complete(Thread.currentThread().getName()));
				assertThat(thread.get(10, TimeUnit.SECONDS)).startsWith("work-virtual-");
				List<String> done = new CopyOnWriteArrayList<>();
				tasks.execute(() -> {
					work(300);
					done.add("done");
				});
				context.close();
				assertThat(done).containsExactly("done");
			});
	}

	@Test
	void oneWarningNamesEverySpringBootTaskPropertyThatHasNoEffect(CapturedOutput output) {
		this.servlet
			.withPropertyValues("spring.task.execution.pool.max-size=3", "spring.task.execution.pool.core-size=2",
					"spring.task.execution.pool.queue-capacity=10")
			.run((context) -> assertThat(context).hasNotFailed());
		assertThat(output).containsOnlyOnce("WARN")
			.contains("spring.task.execution.pool.core-size, spring.task.execution.pool.max-size, "
					+ "spring.task.execution.pool.queue-capacity have no effect: the starter's application task "
					+ "executor replaces Spring Boot's");
	}

	@Test
	void queueTimeoutWithoutATaskLimitIsSaidToHaveNoEffect(CapturedOutput output) {
		this.servlet.withPropertyValues("app.threads.tasks.queue-timeout=1s")
			.run((context) -> assertThat(tasks(context).getTaskLimit()).isNull());
		assertThat(output).containsOnlyOnce("app.threads.tasks.queue-timeout has no effect without "
				+ "app.threads.tasks.max-concurrency");
	}

	@Test
	void theTaskExecutorFollowsASwitchWithItsOwnBound() {
		this.servlet.withPropertyValues("app.threads.model=platform", "app.threads.tasks.max-concurrency=3")
			.run((context) -> {
				context.getBean(ThreadModelSwitcher.class).switchTo(ThreadModel.VIRTUAL, null, 50, "test");
				assertThat(tasks(context).getModel()).isEqualTo(ThreadModel.VIRTUAL);
				assertThat(tasks(context).stats().maxConcurrency()).isEqualTo(3);
			});
	}

	private static List<String> marksOfATask(ApplicationContext context) throws Exception {
		CompletableFuture<List<String>> marks = new CompletableFuture<>();
		Marks.current.set(new CopyOnWriteArrayList<>());
		tasks(context).execute(() -> {
			List<String> seen = Marks.current.get();
			marks.complete((seen != null) ? List.copyOf(seen) : List.of());
		});
		Marks.current.remove();
		return marks.get(10, TimeUnit.SECONDS);
	}

	private static ThreadModelExecutor tasks(ApplicationContext context) {
		return context.getBean("applicationTaskExecutor", ThreadModelExecutor.class);
	}

	/**
	 * A slow task's work (not a wait of the test): the shutdown waits for it.
	 */
	private static void work(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * A decorator that gives the task the caller's marks plus its own name, in the order
	 * the decorators ran.
	 */
	static final class Marks implements TaskDecorator {

		static final ThreadLocal<List<String>> current = new ThreadLocal<>();

		private final String name;

		Marks(String name) {
			this.name = name;
		}

		@Override
		public Runnable decorate(Runnable runnable) {
			return () -> {
				List<String> marks = current.get();
				List<String> mine = new CopyOnWriteArrayList<>((marks != null) ? marks : List.of());
				mine.add(this.name);
				current.set(mine);
				try {
					runnable.run();
				}
				finally {
					current.set(marks);
				}
			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OneDecorator {

		@Bean
		Marks first() {
			return new Marks("first");
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class PrimaryDecorator {

		@Bean
		@Primary
		Marks chosen() {
			return new Marks("chosen");
		}

	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	@Import(TwoDecorators.class)
	static class ForcedApp {

	}

	@Configuration(proxyBeanMethods = false)
	static class TwoDecorators {

		@Bean
		@Order(2)
		Marks second() {
			return new Marks("second");
		}

		@Bean
		@Order(1)
		Marks first() {
			return new Marks("first");
		}

	}

}
