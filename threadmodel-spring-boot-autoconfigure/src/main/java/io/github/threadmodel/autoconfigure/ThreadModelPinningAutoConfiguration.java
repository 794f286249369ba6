package io.github.threadmodel.autoconfigure;

import io.github.threadmodel.pinning.VirtualThreadPinning;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of virtual-thread pinning detection, when the JDK Flight Recorder is
 * there (the {@code jdk.jfr} module; runtimes built with jlink may leave it out). It
 * watches every virtual thread of the JVM, not only the starter's executors, whatever
 * the model: pinning happens wherever virtual threads run, and the model may be switched
 * while the application runs. No meter is added: Micrometer's
 * {@code jvm.threads.virtual.pinned} already counts and times pinning, and a meter per
 * call site would have unbounded tag values.
 */
@AutoConfiguration(after = ThreadModelAutoConfiguration.class)
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
			ThreadModelProperties properties) {
		return new VirtualThreadPinning(
				settings.getIfAvailable(() -> new ThreadModelSettings(properties)).pinningThreshold());
	}

}
