package io.github.threadmodel.autoconfigure;

import java.util.Map;

import io.github.threadmodel.executor.ThreadModelSwitcher;
import io.github.threadmodel.internal.auto.AutoThreadModel;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.cloud.context.environment.EnvironmentChangeEvent;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Auto-configuration of switching by configuration: with spring-cloud-context on the
 * class path, a change of {@code app.threads.*} announced by its
 * {@link EnvironmentChangeEvent} switches the model as a {@code POST} to the endpoint
 * does ({@link ConfigurationSwitchListener}).
 * @since 0.1.0
 */
@AutoConfiguration(after = ThreadModelAutoConfiguration.class)
@ConditionalOnClass(EnvironmentChangeEvent.class)
@ConditionalOnWebApplication
public final class ThreadModelConfigurationSwitchAutoConfiguration {

	/**
	 * Spring Cloud's rebinder binds every {@code @ConfigurationProperties} bean again on each
	 * change, and stops at the first value it cannot bind (a misspelled model, say),
	 * leaving the beans after it unbound. Nothing reads {@link ThreadModelProperties} after
	 * startup, and the listener checks the new values itself, so the bean is left out,
	 * through Spring Cloud's own list ({@value #NEVER_REFRESHABLE}), unless the application
	 * writes that list itself.
	 */
	private static final String NEVER_REFRESHABLE = "spring.cloud.refresh.never-refreshable";

	/** Spring Cloud's default for {@value #NEVER_REFRESHABLE}. */
	private static final String NEVER_REFRESHABLE_DEFAULT = "com.zaxxer.hikari.HikariDataSource";

	@Bean
	@ConditionalOnMissingBean
	ConfigurationSwitchListener threadModelConfigurationSwitchListener(ThreadModelSettings settings,
			ConfigurableEnvironment environment, ThreadModelSwitcher switcher,
			ThreadModelExecutors executors, ObjectProvider<AutoThreadModel> auto) {
		if (!environment.containsProperty(NEVER_REFRESHABLE)) {
			environment.getPropertySources()
				.addLast(new MapPropertySource("threadModelNeverRefreshable", Map.of(NEVER_REFRESHABLE,
						NEVER_REFRESHABLE_DEFAULT + "," + ThreadModelProperties.class.getName())));
		}
		return new ConfigurationSwitchListener(settings, environment, switcher, executors.requests(),
				auto.getIfAvailable());
	}

}
