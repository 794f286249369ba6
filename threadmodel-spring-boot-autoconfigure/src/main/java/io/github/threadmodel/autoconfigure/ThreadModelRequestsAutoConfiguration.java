package io.github.threadmodel.autoconfigure;

import java.util.EnumSet;

import io.github.threadmodel.internal.requests.AsyncRequests;
import io.github.threadmodel.internal.requests.RequestCountingDecorator;
import io.github.threadmodel.internal.requests.RequestCountingFilter;
import io.github.threadmodel.internal.requests.RequestCounts;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.http.server.reactive.HttpHandlerDecoratorFactory;

/**
 * Auto-configuration of the count of HTTP requests ({@link RequestCounts}), which the
 * endpoint's {@code requests} and the {@code threadmodel.requests.*} meters show: a
 * servlet filter first in the chain in servlet applications, a decorator of the
 * {@code HttpHandler} in reactive ones ({@link RequestCountingDecorator}); and, on servlet
 * servers, of the requests open in asynchronous processing ({@link AsyncRequests}).
 * @since 0.1.0
 */
@AutoConfiguration(after = ThreadModelAutoConfiguration.class)
@ConditionalOnWebApplication
public final class ThreadModelRequestsAutoConfiguration {

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = Type.SERVLET)
	@ConditionalOnClass(Filter.class)
	static class ServletRequestsConfiguration {

		/**
		 * First in the chain, for the first dispatch of each request only: an async or error
		 * dispatch belongs to a request already counted.
		 */
		@Bean
		@ConditionalOnMissingBean(value = RequestCountingFilter.class,
				parameterizedContainer = FilterRegistrationBean.class)
		FilterRegistrationBean<RequestCountingFilter> threadModelRequestCountingFilter(RequestCounts counts,
				AsyncRequests asyncRequests) {
			FilterRegistrationBean<RequestCountingFilter> registration = new FilterRegistrationBean<>(
					new RequestCountingFilter(counts, asyncRequests));
			registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
			registration.setDispatcherTypes(EnumSet.of(DispatcherType.REQUEST));
			return registration;
		}

		@Bean
		@ConditionalOnMissingBean
		AsyncRequests threadModelAsyncRequests() {
			return new AsyncRequests();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = Type.REACTIVE)
	@ConditionalOnClass(HttpHandlerDecoratorFactory.class)
	static class ReactiveRequestsConfiguration {

		@Bean
		@ConditionalOnMissingBean
		RequestCountingDecorator threadModelRequestCountingDecorator(RequestCounts counts) {
			return new RequestCountingDecorator(counts);
		}

	}

}
