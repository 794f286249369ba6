package io.github.threadmodel.autoconfigure;

import java.util.EnumSet;

import io.github.threadmodel.overload.OverloadFilter;
import io.github.threadmodel.overload.OverloadWebExceptionHandler;
import io.github.threadmodel.requests.RequestCounts;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.web.server.WebExceptionHandler;

/**
 * Auto-configuration of the answer to requests the request executor refuses under
 * overload (see {@link io.github.threadmodel.executor.OverloadProtection}): 503 with
 * {@code Retry-After}, from a servlet filter on Tomcat, Jetty and Undertow and from a
 * {@link WebExceptionHandler} on WebFlux.
 */
@AutoConfiguration(after = ThreadModelAutoConfiguration.class)
@ConditionalOnWebApplication
public final class ThreadModelOverloadAutoConfiguration {

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = Type.SERVLET)
	@ConditionalOnClass(Filter.class)
	static class ServletOverloadConfiguration {

		/**
		 * Second in the chain, right after the starter's request counting, for the first
		 * dispatch of each request only: an async or error dispatch belongs to a request
		 * that was admitted. Backs off from an
		 * application's own {@link OverloadFilter} bean or registration, as Spring Boot's
		 * {@code @ConditionalOnMissingFilterBean} would (that one changed package in Boot
		 * 4; this condition serves both lines).
		 */
		@Bean
		@ConditionalOnMissingBean(value = OverloadFilter.class, parameterizedContainer = FilterRegistrationBean.class)
		FilterRegistrationBean<OverloadFilter> threadModelOverloadFilter(ThreadModelSettings settings,
				RequestCounts counts) {
			FilterRegistrationBean<OverloadFilter> registration = new FilterRegistrationBean<>(
					new OverloadFilter(settings.retryAfter(), counts));
			registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 1);
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
