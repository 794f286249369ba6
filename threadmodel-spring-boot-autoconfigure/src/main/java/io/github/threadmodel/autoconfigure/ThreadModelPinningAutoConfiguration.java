package io.github.threadmodel.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

import io.github.threadmodel.executor.ThreadModel;
import io.github.threadmodel.executor.ThreadModelExecutor;
import io.github.threadmodel.internal.lanes.Lanes;
import io.github.threadmodel.pinning.VirtualThreadPinning;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * Auto-configuration of virtual-thread pinning detection, when the JDK Flight Recorder is
 * there (the {@code jdk.jfr} module; runtimes built with jlink may leave it out). It
 * watches every virtual thread of the JVM, not only the starter's executors: pinning
 * happens wherever virtual threads run. In a web application it records from startup
 * when one of the starter's executors (a lane's included) runs on virtual threads (or
 * {@code auto}) or {@code spring.threads.virtual.enabled=true} puts Spring Boot's own
 * executors on them, and otherwise from the first switch to virtual threads: on platform
 * threads the recording would cost startup time and native memory for nothing. No meter
 * is added: Micrometer's {@code jvm.threads.virtual.pinned} already counts and times
 * pinning, and a meter per call site would have unbounded tag values.
 * @since 0.1.0
 */
@AutoConfiguration(after = { ThreadModelAutoConfiguration.class, ThreadModelLanesAutoConfiguration.class })
@ConditionalOnClass(name = "jdk.jfr.consumer.RecordingStream")
@ConditionalOnBooleanProperty(name = "app.threads.pinning.enabled", matchIfMissing = true)
@EnableConfigurationProperties(ThreadModelProperties.class)
public final class ThreadModelPinningAutoConfiguration {

	/**
	 * Uses the starter's checked settings; checks the values itself only when the rest of
	 * the starter is excluded, so that it stands alone.
	 */
	@Bean
	@ConditionalOnMissingBean
	VirtualThreadPinning virtualThreadPinning(ObjectProvider<ThreadModelSettings> settings,
			ThreadModelProperties properties, ObjectProvider<ThreadModelExecutors> executors,
			ObjectProvider<Lanes> lanes, Environment environment) {
		ThreadModelSettings read = settings.getIfAvailable(() -> new ThreadModelSettings(properties, environment));
		Duration threshold = read.pinningThreshold();
		ThreadModelExecutors starterExecutors = executors.getIfAvailable();
		if (starterExecutors == null) {
			return new VirtualThreadPinning(threshold);
		}
		Lanes laned = lanes.getIfAvailable(Lanes::none);
		List<ThreadModelExecutor> all = Stream
			.concat(Stream.of(starterExecutors.requests(), starterExecutors.tasks()), laned.executors())
			.filter(Objects::nonNull)
			.toList();
		boolean virtualNow = read.springVirtualThreads()
				|| all.stream().anyMatch((executor) -> executor.getModel() == ThreadModel.VIRTUAL);
		VirtualThreadPinning pinning = new VirtualThreadPinning(threshold, virtualNow, laned::laneOfThread);
		if (!virtualNow) {
			all.forEach((executor) -> executor.onSwitch((change) -> {
				if (change.to() == ThreadModel.VIRTUAL) {
					pinning.virtualThreadsInUse();
				}
			}));
		}
		return pinning;
	}

}
