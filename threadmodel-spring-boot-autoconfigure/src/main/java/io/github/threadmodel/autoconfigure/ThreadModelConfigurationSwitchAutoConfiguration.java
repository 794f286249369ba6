package io.github.threadmodel.autoconfigure;

import io.github.threadmodel.auto.AutoThreadModel;
import io.github.threadmodel.executor.ThreadModelExecutors;
import io.github.threadmodel.executor.ThreadModelSwitcher;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.cloud.context.environment.EnvironmentChangeEvent;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * Auto-configuration of switching by configuration: with spring-cloud-context on the
 * class path, a change of {@code app.threads.*} announced by its
 * {@link EnvironmentChangeEvent} switches the model as a {@code POST} to the endpoint
 * does ({@link ConfigurationSwitchListener}).
 */
@AutoConfiguration(after = ThreadModelAutoConfiguration.class)
@ConditionalOnClass(EnvironmentChangeEvent.class)
@ConditionalOnWebApplication
public final class ThreadModelConfigurationSwitchAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	ConfigurationSwitchListener threadModelConfigurationSwitchListener(ThreadModelSettings settings,
			ThreadModelProperties properties, Environment environment, ThreadModelSwitcher switcher,
			ThreadModelExecutors executors, ObjectProvider<AutoThreadModel> auto) {
		return new ConfigurationSwitchListener(settings, properties, environment, switcher, executors.requests(),
				auto.getIfAvailable());
	}

}
