package io.github.threadmodel.autoconfigure;

import io.github.threadmodel.actuate.ThreadModelEndpoint;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextConfiguration;
import org.springframework.boot.actuate.endpoint.web.PathMappedEndpoints;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/**
 * What the {@code threadmodel} endpoint needs in the context that serves the actuator
 * endpoints: the main one, or the child context of {@code management.server.port}. Its
 * filters refuse switch bodies larger than {@link SwitchBodyLimit#MAX_BYTES}.
 */
@ManagementContextConfiguration(proxyBeanMethods = false)
@ConditionalOnAvailableEndpoint(ThreadModelEndpoint.class)
final class ThreadModelManagementContextConfiguration {

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = Type.SERVLET)
	static class Servlet {

		@Bean
		FilterRegistrationBean<SwitchBodyLimitFilter> threadModelSwitchBodyLimitFilter(
				ObjectProvider<PathMappedEndpoints> endpoints) {
			FilterRegistrationBean<SwitchBodyLimitFilter> registration = new FilterRegistrationBean<>(
					new SwitchBodyLimitFilter(new SwitchBodyLimit(endpoints::getIfAvailable)));
			registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
			return registration;
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = Type.REACTIVE)
	static class Reactive {

		@Bean
		SwitchBodyLimitDecorator threadModelSwitchBodyLimitDecorator(ObjectProvider<PathMappedEndpoints> endpoints) {
			return new SwitchBodyLimitDecorator(new SwitchBodyLimit(endpoints::getIfAvailable));
		}

	}

}
