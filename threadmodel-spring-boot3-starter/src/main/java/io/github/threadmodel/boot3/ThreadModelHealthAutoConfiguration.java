package io.github.threadmodel.boot3;

import io.github.threadmodel.internal.actuate.ThreadModelHealth;
import io.github.threadmodel.autoconfigure.ThreadModelAutoConfiguration;
import io.github.threadmodel.autoconfigure.ThreadModelLanesAutoConfiguration;
import io.github.threadmodel.autoconfigure.ThreadModelOverloadAutoConfiguration;
import io.github.threadmodel.executor.ThreadModelExecutor;
import io.github.threadmodel.internal.lanes.Lanes;
import io.github.threadmodel.internal.overload.ProbeLane;
import io.github.threadmodel.internal.overload.Shedding;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the {@code threadModel} health contributor on Spring Boot 3.5, from
 * this line's health API; what it reports is shared with the other line
 * ({@link ThreadModelHealth}). Never {@code DOWN} because of load.
 * @since 0.1.0
 */
@AutoConfiguration(after = { ThreadModelOverloadAutoConfiguration.class, ThreadModelLanesAutoConfiguration.class })
@ConditionalOnClass(HealthIndicator.class)
@ConditionalOnBean(value = Shedding.class, name = ThreadModelAutoConfiguration.REQUEST_EXECUTOR_BEAN_NAME)
@ConditionalOnEnabledHealthIndicator("threadModel")
public final class ThreadModelHealthAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(name = "threadModelHealthIndicator")
	HealthIndicator threadModelHealthIndicator(
			@Qualifier(ThreadModelAutoConfiguration.REQUEST_EXECUTOR_BEAN_NAME) ThreadModelExecutor requests,
			Shedding shedding, ObjectProvider<Lanes> lanes, ObjectProvider<ProbeLane> probeLane) {
		ThreadModelHealth health = new ThreadModelHealth(requests, shedding, lanes.getIfAvailable(Lanes::none),
				probeLane.getIfAvailable());
		return () -> Health.up().withDetails(health.details()).build();
	}

}
