package io.github.threadmodel.autoconfigure;

import java.time.Duration;
import java.util.Map;

import io.github.threadmodel.actuate.ThreadModelDescriptor;
import io.github.threadmodel.actuate.ThreadModelEndpoint;
import io.github.threadmodel.executor.ThreadModel;
import io.github.threadmodel.executor.ThreadModelExecutor;
import io.github.threadmodel.internal.auto.AutoThreadModel;
import io.github.threadmodel.testapp.TestServers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ApplicationContext;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How {@code app.threads.model=auto} is wired, and the {@code app.threads.auto.*} values
 * that stop startup.
 */
class AutoThreadModelConfigurationTests {

	private final WebApplicationContextRunner servlet = new WebApplicationContextRunner()
		.withConfiguration(TestServers.autoConfigurations())
		.withPropertyValues("management.endpoints.web.exposure.include=threadmodel");

	@Test
	void autoStartsOnVirtualThreadsWithTheTaskExecutorFollowing() {
		this.servlet.withPropertyValues("app.threads.model=auto").run((context) -> {
			assertThat(context).hasSingleBean(AutoThreadModel.class);
			assertThat(context.getBean(AutoThreadModel.class).isRunning()).isTrue();
			assertThat(context.getBean(ThreadModelSettings.class))
				.extracting(ThreadModelSettings::model, ThreadModelSettings::modelSource, ThreadModelSettings::taskModel)
				.containsExactly(ThreadModel.VIRTUAL, "app.threads.model=auto", ThreadModel.VIRTUAL);
			assertThat(requestExecutor(context).getModel()).isEqualTo(ThreadModel.VIRTUAL);
			ThreadModelDescriptor.AutoDescriptor auto = context.getBean(ThreadModelEndpoint.class)
				.threadModel()
				.auto();
			assertThat(auto.active()).isTrue();
			assertThat(auto.choice()).isEqualTo("virtual");
			assertThat(auto.decisions()).isEmpty();
		});
	}

	@Test
	void autoIsReadInAnyCaseAndFromAnEnvironmentVariable() {
		this.servlet.withPropertyValues("app.threads.model=AUTO")
			.run((context) -> assertThat(context).hasSingleBean(AutoThreadModel.class));
		this.servlet
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.addFirst(new SystemEnvironmentPropertySource("environment", Map.of("APP_THREADS_MODEL", "Auto"))))
			.run((context) -> assertThat(context).hasSingleBean(AutoThreadModel.class));
	}

	@Test
	void theLifecycleStopsSamplingWithTheContext() {
		this.servlet.withPropertyValues("app.threads.model=auto").run((context) -> {
			AutoThreadModel auto = context.getBean(AutoThreadModel.class);
			context.close();
			assertThat(auto.isRunning()).isFalse();
		});
	}

	@Test
	void fixedModelsHaveNoAutoAndNoAutoSection() {
		this.servlet.withPropertyValues("app.threads.model=virtual").run((context) -> {
			assertThat(context).doesNotHaveBean(AutoThreadModel.class);
			assertThat(context.getBean(ThreadModelEndpoint.class).threadModel().auto()).isNull();
		});
		this.servlet.run((context) -> assertThat(context).doesNotHaveBean(AutoThreadModel.class));
	}

	@Test
	void autoIsForWebApplicationsOnly() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(ThreadModelAutoConfiguration.class))
			.withPropertyValues("app.threads.model=auto")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(AutoThreadModel.class));
	}

	@Test
	void autoPropertiesBindWithTheirDefaults() {
		this.servlet.withPropertyValues("app.threads.model=auto", "app.threads.auto.window=250ms",
				"app.threads.auto.scheduling-delay=50ms")
			.run((context) -> {
				ThreadModelProperties.Auto auto = context.getBean(ThreadModelProperties.class).getAuto();
				assertThat(auto.getWindow()).isEqualTo(Duration.ofMillis(250));
				assertThat(context.getBean(ThreadModelSettings.class).autoThresholds()).satisfies((thresholds) -> {
					assertThat(thresholds.schedulingDelay()).isEqualTo(Duration.ofMillis(50));
					assertThat(thresholds.severeSchedulingDelay()).isEqualTo(Duration.ofMillis(500));
					assertThat(thresholds.threadWait()).isEqualTo(Duration.ofMillis(10));
					assertThat(thresholds.cpuBusyShare()).isEqualTo(0.5);
					assertThat(thresholds.agreeingWindows()).isEqualTo(3);
					assertThat(thresholds.minDwell()).isEqualTo(Duration.ofSeconds(15));
				});
			});
	}

	@Test
	void postingAutoWithoutAutoIsABadRequest() {
		this.servlet.withPropertyValues("app.threads.model=platform").run((context) -> {
			WebEndpointResponse<Object> response = context.getBean(ThreadModelEndpoint.class)
				.switchModel("auto", null, null, null, null);
			assertThat(response.getStatus()).isEqualTo(400);
			assertThat(response.getBody()).isEqualTo(new ThreadModelEndpoint.SwitchRefused(
					"Thread model 'auto' can only be resumed when the application started with app.threads.model=auto"));
		});
	}

	@Test
	void unknownModelsListAutoWhenItRuns() {
		this.servlet.withPropertyValues("app.threads.model=auto").run((context) -> {
			WebEndpointResponse<Object> response = context.getBean(ThreadModelEndpoint.class)
				.switchModel("green", null, null, null, null);
			assertThat(response.getStatus()).isEqualTo(400);
			assertThat(response.getBody()).isEqualTo(new ThreadModelEndpoint.SwitchRefused(
					"Unknown thread model 'green'; allowed values: platform, virtual, auto"));
		});
	}

	@Test
	@ExtendWith(OutputCaptureExtension.class)
	void aSwitchByHandPausesAutoAndTheInfoLineSaysHowToResumeIt(CapturedOutput output) {
		this.servlet.withPropertyValues("app.threads.model=auto").run((context) -> {
			context.getBean(ThreadModelEndpoint.class).switchModel("platform", null, null, null, null);
			assertThat(context.getBean(AutoThreadModel.class).status().pausedBy()).isEqualTo("actuator");
			assertThat(output).contains("Thread model auto: paused, actuator switched to platform threads; "
					+ "POST {\"model\":\"auto\"} to /actuator/threadmodel, or app.threads.model=auto in a "
					+ "configuration change, resumes it");
		});
	}

	@ParameterizedTest(name = "{0}={1}")
	@CsvSource(delimiter = '|', textBlock = """
			app.threads.auto.window           | 0s    | 0ms   | a duration of 10ms or more
			app.threads.auto.window           | 5ms   | 5ms   | a duration of 10ms or more
			app.threads.auto.agreeing-windows | 0     | 0     | a whole number of 1 or more
			app.threads.auto.min-dwell        | -1s   | -1000ms | a duration of zero or more
			app.threads.auto.thread-wait      | 0ms   | 0ms   | a duration above zero
			app.threads.auto.cpu-busy-share   | 1.5   | 1.5   | a number above 0 and at most 1
			app.threads.auto.cpu-busy-share   | 0     | 0.0   | a number above 0 and at most 1
			app.threads.auto.scheduling-delay | -20ms | -20ms | a duration above zero
			app.threads.auto.severe-scheduling-delay | 10ms | 10ms | a duration of at least app.threads.auto.scheduling-delay (20ms)
			app.threads.switching.enabled     | false | false | true when app.threads.model is auto
			""")
	void badValuesStopStartupNamingThePropertyAndWhatIsAllowed(String property, String value, String shown,
			String allowed) {
		this.servlet.withPropertyValues("app.threads.model=auto", property + "=" + value).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.satisfies((ex) -> {
					InvalidConfigurationPropertyValueException invalid = (InvalidConfigurationPropertyValueException) ex;
					assertThat(invalid.getName()).isEqualTo(property);
					assertThat(String.valueOf(invalid.getValue())).isEqualTo(shown);
					assertThat(invalid.getReason()).startsWith("Allowed: " + allowed);
				});
		});
	}

	private static ThreadModelExecutor requestExecutor(ApplicationContext context) {
		return context.getBean(ThreadModelAutoConfiguration.REQUEST_EXECUTOR_BEAN_NAME, ThreadModelExecutor.class);
	}

}
