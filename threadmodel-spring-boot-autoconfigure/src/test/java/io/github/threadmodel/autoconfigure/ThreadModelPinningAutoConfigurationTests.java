package io.github.threadmodel.autoconfigure;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

import io.github.threadmodel.actuate.ThreadModelDescriptor.PinningDescriptor;
import io.github.threadmodel.actuate.ThreadModelEndpoint;
import io.github.threadmodel.executor.ThreadModel;
import io.github.threadmodel.executor.ThreadModelSwitcher;
import io.github.threadmodel.pinning.VirtualThreadPinning;
import io.github.threadmodel.testapp.TestServers;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * When pinning detection is set up, and how the endpoint shows it.
 */
class ThreadModelPinningAutoConfigurationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(
			AutoConfigurations.of(ThreadModelAutoConfiguration.class, ThreadModelPinningAutoConfiguration.class));

	private final WebApplicationContextRunner web = new WebApplicationContextRunner()
		.withConfiguration(TestServers.autoConfigurations())
		.withConfiguration(AutoConfigurations.of(ThreadModelPinningAutoConfiguration.class))
		.withPropertyValues("management.endpoints.web.exposure.include=threadmodel");

	@Test
	void onByDefaultWithJfrsThresholdAndRunsAsLongAsTheContext() {
		AtomicReference<VirtualThreadPinning> pinning = new AtomicReference<>();
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(VirtualThreadPinning.class);
			pinning.set(context.getBean(VirtualThreadPinning.class));
			assertThat(pinning.get().isRunning()).isTrue();
			assertThat(pinning.get().stats().threshold()).isEqualTo(Duration.ofMillis(20));
		});
		assertThat(pinning.get().isRunning()).isFalse();
		assertThat(pinning.get().isRecording()).isFalse();
	}

	@Test
	void standsAloneWhenTheRestOfTheStarterIsExcluded() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ThreadModelPinningAutoConfiguration.class))
			.run((context) -> assertThat(context).hasSingleBean(VirtualThreadPinning.class));
	}

	@Test
	void recordsFromStartupWhenRequestsRunOnVirtualThreads() {
		for (String model : new String[] { "virtual", "auto" }) {
			this.web.withPropertyValues("app.threads.model=" + model)
				.run((context) -> await().atMost(TIMEOUT).until(context.getBean(VirtualThreadPinning.class)::isRecording));
		}
	}

	@Test
	void recordsFromStartupOnPlatformThreadsWhenSpringBootsExecutorsAreVirtual() {
		this.web.withPropertyValues("app.threads.model=platform", "spring.threads.virtual.enabled=true")
			.run((context) -> await().atMost(TIMEOUT).until(context.getBean(VirtualThreadPinning.class)::isRecording));
	}

	@Test
	void recordsFromStartupOnPlatformThreadsWhenALaneIsVirtual() {
		this.web.withConfiguration(AutoConfigurations.of(ThreadModelLanesAutoConfiguration.class))
			.withPropertyValues("app.threads.model=platform", "app.threads.lanes.io.paths=/io/**",
					"app.threads.lanes.io.model=virtual")
			.run((context) -> await().atMost(TIMEOUT).until(context.getBean(VirtualThreadPinning.class)::isRecording));
	}

	@Test
	void onPlatformThreadsRecordsFromTheFirstSwitchToVirtualThreads() {
		this.web.withPropertyValues("app.threads.model=platform").run((context) -> {
			VirtualThreadPinning pinning = context.getBean(VirtualThreadPinning.class);
			assertThat(pinning.isRunning()).isTrue();
			// longer than JFR takes to open its first recording in a JVM (0.7 to 1.5 s)
			await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3)).until(() -> !pinning.isRecording());
			assertThat(context.getBean(ThreadModelEndpoint.class).threadModel().pinning().recording()).isFalse();
			ThreadModelSwitcher switcher = context.getBean(ThreadModelSwitcher.class);
			switcher.switchTo(ThreadModel.VIRTUAL, null, null, "test");
			await().atMost(TIMEOUT).until(pinning::isRecording);
			switcher.switchTo(ThreadModel.PLATFORM, null, null, "test");
			assertThat(pinning.isRecording()).isTrue();
		});
	}

	@Test
	void thresholdIsConfigurable() {
		this.runner.withPropertyValues("app.threads.pinning.threshold=5ms")
			.run((context) -> assertThat(context.getBean(VirtualThreadPinning.class).stats().threshold())
				.isEqualTo(Duration.ofMillis(5)));
	}

	@Test
	void offWhenDisabled() {
		this.runner.withPropertyValues("app.threads.pinning.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(VirtualThreadPinning.class));
	}

	@Test
	void offWithoutTheJdkFlightRecorder() {
		this.runner.withClassLoader(new FilteredClassLoader("jdk.jfr."))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(VirtualThreadPinning.class));
	}

	@Test
	void usersOwnPinningDetectionWins() {
		this.runner.withUserConfiguration(UserPinningConfiguration.class).run((context) -> {
			assertThat(context).hasSingleBean(VirtualThreadPinning.class);
			assertThat(context.getBean(VirtualThreadPinning.class).stats().threshold())
				.isEqualTo(Duration.ofMillis(1));
		});
	}

	@Test
	void endpointShowsPinningWhenOn() {
		this.web.withPropertyValues("app.threads.pinning.threshold=50ms").run((context) -> {
			PinningDescriptor pinning = context.getBean(ThreadModelEndpoint.class).threadModel().pinning();
			assertThat(pinning).isNotNull();
			assertThat(pinning.thresholdMs()).isEqualTo(50.0);
			assertThat(pinning.count()).isGreaterThanOrEqualTo(0);
			assertThat(pinning.untrackedCount()).isZero();
		});
	}

	@Test
	void endpointLeavesPinningOutWhenOff() {
		this.web.withPropertyValues("app.threads.pinning.enabled=false")
			.run((context) -> assertThat(context.getBean(ThreadModelEndpoint.class).threadModel().pinning()).isNull());
		this.web.withClassLoader(new FilteredClassLoader("jdk.jfr."))
			.run((context) -> assertThat(context.getBean(ThreadModelEndpoint.class).threadModel().pinning()).isNull());
	}

	@Configuration(proxyBeanMethods = false)
	static class UserPinningConfiguration {

		@Bean
		VirtualThreadPinning userPinning() {
			return new VirtualThreadPinning(Duration.ofMillis(1));
		}

	}

}
