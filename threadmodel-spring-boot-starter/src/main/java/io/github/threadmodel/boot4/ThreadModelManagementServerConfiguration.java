package io.github.threadmodel.boot4;

import io.github.threadmodel.autoconfigure.ThreadModelAutoConfiguration;
import io.github.threadmodel.internal.servers.ServerFactoryCustomizer;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;
import org.apache.coyote.ProtocolHandler;
import org.apache.tomcat.util.threads.VirtualThreadExecutor;
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
 * Keeps a management server on a port of its own ({@code management.server.port}) on
 * platform request threads, as Spring Boot gives it without
 * {@code spring.threads.virtual.enabled}. With that property Spring Boot 4's server modules
 * apply their virtual-thread customizers in the management server's child context too; the
 * health probes sent there then wait for a carrier of the virtual threads, which CPU-bound
 * requests of the application can hold for seconds (virtual threads are not time-sliced),
 * and the kubelet restarts the pod. Platform threads are time-sliced by the OS with every
 * busy carrier. The management server serves only the actuator, so it needs few of them;
 * the application's requests keep the model they were given. Applied in the child context,
 * after Spring Boot's own customizers. Spring Boot 3.5 needs none of this: its
 * virtual-thread customizers are in an auto-configuration that the child context leaves
 * out. Not where the starter's auto-configurations are excluded (the management context's
 * configurations are not auto-configurations, so the exclusion does not reach them): the
 * parent context then has no request executor of the starter's.
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
					(factory) -> factory.addConnectorCustomizers(TomcatConfiguration::platformThreads));
		}

		/**
		 * Gives the connector back to a pool of platform threads of Tomcat's own, which it
		 * makes when it starts, in place of Spring Boot's virtual-thread executor; any
		 * other executor is left alone.
		 */
		private static void platformThreads(Connector connector) {
			ProtocolHandler handler = connector.getProtocolHandler();
			if (handler.getExecutor() instanceof VirtualThreadExecutor) {
				handler.setExecutor(null);
			}
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
