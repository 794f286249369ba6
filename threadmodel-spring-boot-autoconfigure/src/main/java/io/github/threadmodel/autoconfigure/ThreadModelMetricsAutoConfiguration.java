package io.github.threadmodel.autoconfigure;

import java.util.LinkedHashMap;
import java.util.Map;

import io.github.threadmodel.executor.ThreadModelExecutor;
import io.github.threadmodel.internal.actuate.ServerKind;
import io.github.threadmodel.internal.lanes.Lanes;
import io.github.threadmodel.internal.overload.ProbeLane;
import io.github.threadmodel.internal.requests.AsyncRequests;
import io.github.threadmodel.internal.requests.RequestCounts;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.binder.jvm.ExecutorServiceMetrics;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the starter's Micrometer meters. Virtual-thread meters
 * ({@code jvm.threads.virtual.*}) and startup-time meters ({@code application.*.time})
 * are not made here: Spring Boot makes them from {@code micrometer-java21}, which the
 * starter brings, and from its own startup listener. Ordered after Spring Boot's metrics
 * auto-configuration, named as it is on Boot 4 and on Boot 3.5.
 * @since 0.1.0
 */
@AutoConfiguration(after = ThreadModelAutoConfiguration.class, afterName = {
		"org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
		"org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration" })
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnWebApplication
public final class ThreadModelMetricsAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	ThreadModelMetrics threadModelMetrics(ThreadModelExecutors executors, RequestCounts requestCounts,
			ObjectProvider<AsyncRequests> asyncRequests, ServerKind serverKind, ObjectProvider<Lanes> lanes) {
		Map<String, ThreadModelExecutor> laneExecutors = new LinkedHashMap<>();
		lanes.ifAvailable((available) -> available.all()
			.forEach((lane) -> laneExecutors.put(lane.name(), lane.executor())));
		return new ThreadModelMetrics(executors.requests(), executors.tasks(), requestCounts,
				asyncRequests.getIfAvailable(), serverKind::name, laneExecutors);
	}

	/**
	 * The health probes' lane, a plain thread pool, with Micrometer's own executor meters
	 * ({@code executor.*}, tag {@code name} its bean name).
	 */
	@Bean
	@ConditionalOnWebApplication(type = Type.SERVLET)
	@ConditionalOnMissingBean(name = "threadModelProbeLaneMetrics")
	MeterBinder threadModelProbeLaneMetrics(ObjectProvider<ProbeLane> probeLane) {
		return (registry) -> probeLane.ifAvailable((lane) -> new ExecutorServiceMetrics(lane.threads(),
				ThreadModelMetrics.PROBE_LANE_NAME, Tags.empty()).bindTo(registry));
	}

}
