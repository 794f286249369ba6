package io.github.threadmodel.boot4;

import io.github.threadmodel.autoconfigure.ThreadModelAutoConfiguration;
import io.github.threadmodel.internal.servers.ManagementServerThreads;
import io.github.threadmodel.internal.servers.ServerFactoryCustomizer;
import org.apache.catalina.startup.Tomcat;
import org.eclipse.jetty.server.Server;

import org.springframework.boot.actuate.autoconfigure.web.ManagementContextConfiguration;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextType;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.jetty.ConfigurableJettyWebServerFactory;
import org.springframework.boot.tomcat.ConfigurableTomcatWebServerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Keeps a management server on a port of its own on platform request threads when
 * {@code spring.threads.virtual.enabled=true} would make them virtual (why:
 * {@link ManagementServerThreads}), on Spring Boot 4. Applied in the management server's
 * child context, after Spring Boot's virtual-thread customizers. Not where the starter's
 * auto-configurations are excluded (the management context's configurations are not
 * auto-configurations, so the exclusion does not reach them): the parent context then has
 * no request executor of the starter's.
 */
@ManagementContextConfiguration(value = ManagementContextType.CHILD, proxyBeanMethods = false)
@ConditionalOnProperty(name = "spring.threads.virtual.enabled", havingValue = "true")
@ConditionalOnBean(name = ThreadModelAutoConfiguration.REQUEST_EXECUTOR_BEAN_NAME)
final class ThreadModelManagementServerConfiguration {

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(Tomcat.class)
	static class TomcatConfiguration {

		@Bean
		ServerFactoryCustomizer<ConfigurableTomcatWebServerFactory> threadModelManagementTomcatThreads() {
			return new ServerFactoryCustomizer<>(ConfigurableTomcatWebServerFactory.class,
					(factory) -> factory.addConnectorCustomizers(ManagementServerThreads::tomcat));
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(Server.class)
	static class JettyConfiguration {

		/**
		 * No pool of Spring Boot's, so that Jetty makes its own {@code QueuedThreadPool} of
		 * platform threads: under this condition the pool set before is always Spring Boot's
		 * {@code VirtualThreadPool}, which replaced the one of {@code server.jetty.threads}.
		 */
		@Bean
		ServerFactoryCustomizer<ConfigurableJettyWebServerFactory> threadModelManagementJettyThreads() {
			return new ServerFactoryCustomizer<>(ConfigurableJettyWebServerFactory.class,
					(factory) -> factory.setThreadPool(null));
		}

	}

}
