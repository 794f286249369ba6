package io.github.threadmodel.autoconfigure;

import java.util.EnumSet;

import io.github.threadmodel.executor.ThreadModelExecutor;
import io.github.threadmodel.internal.handoff.RequestHandOff;
import io.github.threadmodel.internal.lanes.ServletLanes;
import io.github.threadmodel.internal.overload.OverloadFilter;
import io.github.threadmodel.internal.overload.OverloadWebExceptionHandler;
import io.github.threadmodel.internal.overload.ProbeLane;
import io.github.threadmodel.internal.overload.Shedding;
import io.github.threadmodel.internal.requests.RequestCounts;
import io.github.threadmodel.internal.servers.RequestThreadContext;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.availability.ApplicationAvailabilityBean;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;
import org.springframework.web.server.WebExceptionHandler;

/**
 * Auto-configuration of the answer to requests the request executor refuses under
 * overload (see {@link io.github.threadmodel.executor.ExecutorSettings.OverloadProtection}): 503 with
 * {@code Retry-After}, from a servlet filter on Tomcat, Jetty and Undertow and from a
 * {@link WebExceptionHandler} on WebFlux.
 * @since 0.1.0
 */
@AutoConfiguration(after = { ThreadModelAutoConfiguration.class, ThreadModelRequestsAutoConfiguration.class,
		ThreadModelLanesAutoConfiguration.class })
@ConditionalOnWebApplication
public final class ThreadModelOverloadAutoConfiguration {

	/**
	 * Whether the starter sheds load, for the {@code threadModel} health contributor and,
	 * when asked, for readiness.
	 */
	@Bean
	@ConditionalOnMissingBean
	Shedding threadModelShedding(ThreadModelSettings settings, RequestCounts counts) {
		return settings.shedding(counts);
	}

	@Bean
	@ConditionalOnMissingBean
	SheddingReadiness threadModelSheddingReadiness(Shedding shedding, ThreadModelSettings settings,
			ApplicationEventPublisher events, ObjectProvider<ApplicationAvailability> availability) {
		return new SheddingReadiness(shedding, settings.refuseTrafficWhenShedding(), events,
				availability.getIfAvailable(ApplicationAvailabilityBean::new));
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = Type.SERVLET)
	@ConditionalOnClass(Filter.class)
	static class ServletOverloadConfiguration {

		/**
		 * The health probes' own threads, which the servlet servers' adapters feed (they
		 * tell a probe from its request line before any queue), and the filter checks.
		 */
		@Bean
		@ConditionalOnMissingBean
		ProbeLane threadModelProbeLane(ThreadModelSettings settings, Environment environment) {
			return ProbeLane.of(environment, settings.probePaths());
		}

		/**
		 * Right after the starter's request counting (the same order, and this
		 * auto-configuration after that one), before observation ({@code HIGHEST_PRECEDENCE + 1})
		 * and security, for the first dispatch of each request only: an async or error
		 * dispatch belongs to a request that was admitted. With it in the chain, the request
		 * executor reads requests ahead of their turn, so that a request that waits is one
		 * the server counts as active during a graceful shutdown, and a probe that came to
		 * the executor all the same (over TLS on Jetty) skips the queue; a lane's request
		 * goes to the lane's executor (see {@link ThreadModelLanesAutoConfiguration}). Backs off from an
		 * application's own {@link OverloadFilter} bean or registration, as Spring Boot's
		 * {@code @ConditionalOnMissingFilterBean} would (that one changed package in Boot
		 * 4; this condition serves both lines).
		 */
		@Bean
		@ConditionalOnMissingBean(value = OverloadFilter.class, parameterizedContainer = FilterRegistrationBean.class)
		FilterRegistrationBean<OverloadFilter> threadModelOverloadFilter(ThreadModelSettings settings,
				RequestCounts counts, ThreadModelExecutors executors, ObjectProvider<RequestThreadContext> contexts,
				ProbeLane probes, ObjectProvider<ServletLanes> lanes) {
			ThreadModelExecutor requests = executors.requests();
			FilterRegistrationBean<OverloadFilter> registration = new FilterRegistrationBean<>(
					new OverloadFilter(settings.retryAfter(), counts, probes.paths(), requests,
							contexts.orderedStream().toList(), lanes.getIfAvailable(ServletLanes::none)));
			RequestHandOff.readRequestsAhead(requests, settings.readAheadLimit());
			registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
			registration.setDispatcherTypes(EnumSet.of(DispatcherType.REQUEST));
			return registration;
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = Type.REACTIVE)
	@ConditionalOnClass(WebExceptionHandler.class)
	static class ReactiveOverloadConfiguration {

		@Bean
		@ConditionalOnMissingBean
		OverloadWebExceptionHandler threadModelOverloadWebExceptionHandler(ThreadModelSettings settings,
				RequestCounts counts) {
			return new OverloadWebExceptionHandler(settings.retryAfter(), counts);
		}

	}

}
