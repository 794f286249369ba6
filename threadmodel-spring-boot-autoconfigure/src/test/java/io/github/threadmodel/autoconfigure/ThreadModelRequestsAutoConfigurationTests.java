package io.github.threadmodel.autoconfigure;

import java.util.EnumSet;

import io.github.threadmodel.internal.requests.AsyncRequests;
import io.github.threadmodel.internal.requests.RequestCountingDecorator;
import io.github.threadmodel.internal.requests.RequestCountingFilter;
import io.github.threadmodel.internal.requests.RequestCounts;
import jakarta.servlet.DispatcherType;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.core.Ordered;
import org.springframework.http.server.reactive.HttpHandlerDecoratorFactory;
import org.springframework.test.util.ReflectionTestUtils;
import org.springframework.web.server.WebFilter;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where the HTTP requests are counted: a servlet filter first in the chain, for the
 * first dispatch of each request, or a decorator of WebFlux's {@code HttpHandler}, the
 * innermost one, with no {@code WebFilter}.
 */
class ThreadModelRequestsAutoConfigurationTests {

	private static final AutoConfigurations STARTER = AutoConfigurations.of(ThreadModelAutoConfiguration.class,
			ThreadModelRequestsAutoConfiguration.class);

	@Test
	void servletApplicationCountsInTheFirstFilterOnTheFirstDispatch() {
		new WebApplicationContextRunner().withConfiguration(STARTER).run((context) -> {
			assertThat(context).hasSingleBean(RequestCounts.class).doesNotHaveBean(RequestCountingDecorator.class);
			FilterRegistrationBean<?> registration = context.getBean("threadModelRequestCountingFilter",
					FilterRegistrationBean.class);
			assertThat(registration.getFilter()).isInstanceOf(RequestCountingFilter.class);
			assertThat(registration.getOrder()).isEqualTo(Ordered.HIGHEST_PRECEDENCE);
			assertThat(ReflectionTestUtils.getField(registration, "dispatcherTypes"))
				.isEqualTo(EnumSet.of(DispatcherType.REQUEST));
		});
	}

	@Test
	void servletApplicationCountsOpenAsyncRequestsInTheSameFilter() {
		new WebApplicationContextRunner().withConfiguration(STARTER).run((context) -> {
			assertThat(context).hasSingleBean(AsyncRequests.class);
			FilterRegistrationBean<?> registration = context.getBean("threadModelRequestCountingFilter",
					FilterRegistrationBean.class);
			assertThat(ReflectionTestUtils.getField(registration.getFilter(), "asyncRequests"))
				.isSameAs(context.getBean(AsyncRequests.class));
		});
		new ReactiveWebApplicationContextRunner().withConfiguration(STARTER)
			.run((context) -> assertThat(context).doesNotHaveBean(AsyncRequests.class));
	}

	@Test
	void reactiveApplicationCountsInTheInnermostHttpHandlerDecoratorWithNoWebFilter() {
		new ReactiveWebApplicationContextRunner().withConfiguration(STARTER).run((context) -> {
			assertThat(context).hasSingleBean(RequestCountingDecorator.class)
				.hasSingleBean(HttpHandlerDecoratorFactory.class)
				.doesNotHaveBean(WebFilter.class)
				.doesNotHaveBean(FilterRegistrationBean.class);
			assertThat(context.getBean(RequestCountingDecorator.class).getOrder()).isEqualTo(Ordered.LOWEST_PRECEDENCE);
		});
	}

	@Test
	void nothingOutsideWebApplications() {
		new ApplicationContextRunner().withConfiguration(STARTER)
			.run((context) -> assertThat(context).doesNotHaveBean(RequestCounts.class)
				.doesNotHaveBean(FilterRegistrationBean.class)
				.doesNotHaveBean(RequestCountingDecorator.class));
	}

}
