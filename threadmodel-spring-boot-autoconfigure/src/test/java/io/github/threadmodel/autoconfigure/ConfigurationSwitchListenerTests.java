package io.github.threadmodel.autoconfigure;

import java.util.Map;
import java.util.Set;

import io.github.threadmodel.executor.ThreadModel;
import io.github.threadmodel.executor.ThreadModelExecutor;
import io.github.threadmodel.internal.auto.AutoThreadModel;
import io.github.threadmodel.testapp.TestServers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableWebApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.cloud.context.environment.EnvironmentChangeEvent;
import org.springframework.core.env.MapPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ConfigurationSwitchListener} on an application context without a server: when it
 * is there, and what it makes of each kind of change. The switch on real servers, with
 * spring-cloud-context's endpoints, is {@code ConfigurationSwitchingIntegrationTests}.
 */
@ExtendWith(OutputCaptureExtension.class)
class ConfigurationSwitchListenerTests {

	private final WebApplicationContextRunner starter = new WebApplicationContextRunner()
		.withConfiguration(TestServers.autoConfigurations())
		.withConfiguration(AutoConfigurations.of(ThreadModelConfigurationSwitchAutoConfiguration.class));

	private final WebApplicationContextRunner servlet = this.starter.withPropertyValues("app.threads.model=platform",
			"app.threads.platform.max-threads=4");

	@Test
	void listensWithSpringCloudContextOnTheClassPathOnly() {
		this.servlet.run((context) -> assertThat(context).hasSingleBean(ConfigurationSwitchListener.class));
		this.servlet.withClassLoader(new FilteredClassLoader(EnvironmentChangeEvent.class))
			.run((context) -> assertThat(context).doesNotHaveBean(ConfigurationSwitchListener.class));
		new ApplicationContextRunner().withConfiguration(TestServers.autoConfigurations())
			.withConfiguration(AutoConfigurations.of(ThreadModelConfigurationSwitchAutoConfiguration.class))
			.run((context) -> assertThat(context).doesNotHaveBean(ConfigurationSwitchListener.class));
	}

	@Test
	void takesKeysInAnyRelaxedFormAndIgnoresOtherProperties(CapturedOutput output) {
		this.servlet.run((context) -> {
			change(context, Map.of("app.threads.platform.maxThreads", "6", "server.port", "1"));
			assertThat(requests(context).getSettings().platform().maxThreads()).isEqualTo(6);
			assertThat(output).contains("Thread model switched by configuration "
					+ "(app.threads.platform.max-threads=6): platform threads with new limits")
				.doesNotContain("read at startup only");
			change(context, Map.of("server.port", "2", "app.threads.model", "virtual"), "server.port");
			assertThat(requests(context).getModel()).isEqualTo(ThreadModel.PLATFORM);
		});
	}

	@Test
	void anUnsetModelIsChosenAsAtStartup() {
		this.starter.withPropertyValues("spring.threads.virtual.enabled=true")
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.addFirst(new MapPropertySource("written", Map.of("app.threads.model", "platform"))))
			.run((context) -> {
				context.getEnvironment().getPropertySources().remove("written");
				context.publishEvent(new EnvironmentChangeEvent(context, Set.of("app.threads.model")));
				assertThat(requests(context).getModel()).isEqualTo(ThreadModel.VIRTUAL);
				assertThat(requests(context).switchHistory().get(0).requestedBy())
					.isEqualTo("configuration: app.threads.model=virtual");
			});
	}

	@Test
	void aValueThatCannotBeBoundIsRefusedWithWhatIsAllowed(CapturedOutput output) {
		this.servlet.run((context) -> {
			change(context, Map.of("app.threads.platform.max-threads", "abc", "app.threads.model", "virtual"));
			assertThat(output).contains("Thread model stays platform: configuration change refused: Property "
					+ "app.threads.platform.max-threads with value 'abc' is invalid: Allowed: a whole number.");
			assertThat(requests(context).getModel()).isEqualTo(ThreadModel.PLATFORM);
			assertThat(requests(context).switchHistory()).isEmpty();
		});
	}

	@Test
	void aRemovedFixedLimitStaysWithAWarning(CapturedOutput output) {
		this.servlet.withPropertyValues("app.threads.virtual.max-concurrency=5").run((context) -> {
			context.getEnvironment()
				.getPropertySources()
				.addFirst(new MapPropertySource("change", Map.of("app.threads.virtual.max-concurrency", "")));
			context.publishEvent(new EnvironmentChangeEvent(context, Set.of("app.threads.virtual.max-concurrency")));
			assertThat(output).contains("Thread model keeps the fixed limit app.threads.virtual.max-concurrency=5: "
					+ "the property was removed, but a running application cannot go back to an adaptive or no limit");
			assertThat(requests(context).getSettings().maxConcurrency()).isEqualTo(5);
			assertThat(requests(context).switchHistory()).isEmpty();
		});
	}

	@Test
	void aNewLimitUnderAutoKeepsAutoDeciding(CapturedOutput output) {
		this.servlet.withPropertyValues("app.threads.model=auto").run((context) -> {
			change(context, Map.of("app.threads.platform.max-threads", "6"));
			assertThat(requests(context).getSettings().platform().maxThreads()).isEqualTo(6);
			assertThat(context.getBean(AutoThreadModel.class).status().active()).isTrue();
			assertThat(output).contains("Thread model auto decides, with new limits, by configuration "
					+ "(app.threads.platform.max-threads=6)");
		});
	}

	/**
	 * Puts the values first in the environment and announces the keys, as spring-cloud-context
	 * does after a refresh.
	 */
	private static void change(AssertableWebApplicationContext context, Map<String, Object> values, String... keys) {
		context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("change", values));
		context.publishEvent(new EnvironmentChangeEvent(context, (keys.length > 0) ? Set.of(keys) : values.keySet()));
	}

	private static ThreadModelExecutor requests(AssertableWebApplicationContext context) {
		return context.getBean(ThreadModelAutoConfiguration.REQUEST_EXECUTOR_BEAN_NAME, ThreadModelExecutor.class);
	}

}
