package io.github.threadmodel.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.Set;

import io.github.threadmodel.internal.lanes.ServletLanes;
import io.github.threadmodel.internal.overload.OverloadFilter;
import io.github.threadmodel.internal.overload.OverloadWebExceptionHandler;
import io.github.threadmodel.internal.overload.ProbePaths;
import io.github.threadmodel.internal.requests.RequestCounts;
import jakarta.servlet.Filter;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which answer to overload the auto-configuration sets up: a first servlet filter in
 * servlet applications, a WebExceptionHandler in reactive ones.
 */
class ThreadModelOverloadAutoConfigurationTests {

	private static final AutoConfigurations STARTER = AutoConfigurations.of(ThreadModelAutoConfiguration.class,
			ThreadModelOverloadAutoConfiguration.class);

	private final WebApplicationContextRunner servlet = new WebApplicationContextRunner().withConfiguration(STARTER);

	private final ReactiveWebApplicationContextRunner reactive = new ReactiveWebApplicationContextRunner()
		.withConfiguration(STARTER);

	@Test
	void servletApplicationGetsTheFilterRightAfterTheRequestCounting() {
		this.servlet.run((context) -> {
			assertThat(context).doesNotHaveBean(OverloadWebExceptionHandler.class);
			FilterRegistrationBean<?> registration = context.getBean(FilterRegistrationBean.class);
			assertThat(registration.getFilter()).isInstanceOf(OverloadFilter.class);
			assertThat(registration.getOrder()).isEqualTo(Ordered.HIGHEST_PRECEDENCE);
		});
	}

	@Test
	void reactiveApplicationGetsTheExceptionHandler() {
		this.reactive.run((context) -> {
			assertThat(context).hasSingleBean(OverloadWebExceptionHandler.class);
			assertThat(context).doesNotHaveBean(FilterRegistrationBean.class);
			assertThat(context.getBean(OverloadWebExceptionHandler.class).getOrder()).isLessThan(-1);
		});
	}

	@Test
	void noFilterWithoutTheServletApi() {
		this.servlet.withClassLoader(new FilteredClassLoader(Filter.class))
			.run((context) -> assertThat(context).doesNotHaveBean(FilterRegistrationBean.class));
	}

	@Test
	void nothingOutsideWebApplications() {
		new ApplicationContextRunner().withConfiguration(STARTER)
			.run((context) -> assertThat(context).doesNotHaveBean(FilterRegistrationBean.class)
				.doesNotHaveBean(OverloadWebExceptionHandler.class));
	}

	@Test
	void backsOffFromTheApplicationsOwnRegistration() {
		this.servlet.withUserConfiguration(OwnFilter.class).run((context) -> {
			assertThat(context).hasSingleBean(FilterRegistrationBean.class);
			assertThat(context.getBean(FilterRegistrationBean.class).getOrder()).isEqualTo(5);
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class OwnFilter {

		@Bean
		FilterRegistrationBean<OverloadFilter> ownOverloadFilter() {
			FilterRegistrationBean<OverloadFilter> registration = new FilterRegistrationBean<>(
					new OverloadFilter(Duration.ofSeconds(5), new RequestCounts(), new ProbePaths(Set.of()), null,
							List.of(), ServletLanes.none()));
			registration.setOrder(5);
			return registration;
		}

	}

}
