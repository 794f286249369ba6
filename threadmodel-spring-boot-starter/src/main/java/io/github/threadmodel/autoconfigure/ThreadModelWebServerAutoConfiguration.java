package io.github.threadmodel.autoconfigure;

import io.github.threadmodel.executor.ConnectionIntake;
import io.github.threadmodel.executor.ThreadModelExecutor;
import io.undertow.Undertow;
import io.undertow.servlet.api.DeploymentInfo;
import org.apache.catalina.startup.Tomcat;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import reactor.netty.http.server.HttpServer;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.web.reactive.config.WebFluxConfigurer;

/**
 * Auto-configuration that hands each embedded web server's request work to the
 * starter's request executor: one thin adapter per server.
 */
@AutoConfiguration(after = ThreadModelAutoConfiguration.class)
@ConditionalOnWebApplication
public final class ThreadModelWebServerAutoConfiguration {

	/**
	 * Whether none of a server's own properties for a setting is set: a user's value for
	 * the server always wins over the starter's.
	 */
	private static boolean unset(Environment environment, String... serverProperties) {
		for (String property : serverProperties) {
			if (environment.containsProperty(property)) {
				return false;
			}
		}
		return true;
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(Tomcat.class)
	static class TomcatConfiguration {

		@Bean
		TomcatThreadModelCustomizer tomcatThreadModelCustomizer(
				@Qualifier(ThreadModelAutoConfiguration.REQUEST_EXECUTOR_BEAN_NAME) ThreadModelExecutor executor,
				ConnectionIntake intake, Environment environment) {
			return new TomcatThreadModelCustomizer(executor,
					unset(environment, "server.tomcat.accept-count") ? intake.acceptBacklog() : null);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ Server.class, QueuedThreadPool.class })
	static class JettyConfiguration {

		@Bean
		JettyThreadModelCustomizer jettyThreadModelCustomizer(
				@Qualifier(ThreadModelAutoConfiguration.REQUEST_EXECUTOR_BEAN_NAME) ThreadModelExecutor executor,
				ConnectionIntake intake) {
			return new JettyThreadModelCustomizer(executor, intake.acceptBacklog());
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ Undertow.class, DeploymentInfo.class })
	@ConditionalOnWebApplication(type = Type.SERVLET)
	static class UndertowConfiguration {

		@Bean
		UndertowThreadModelCustomizer undertowThreadModelCustomizer(
				@Qualifier(ThreadModelAutoConfiguration.REQUEST_EXECUTOR_BEAN_NAME) ThreadModelExecutor executor,
				ConnectionIntake intake, Environment environment) {
			boolean backlogUnset = unset(environment, "server.undertow.options.socket.BACKLOG",
					"server.undertow.options.socket.backlog");
			return new UndertowThreadModelCustomizer(executor, backlogUnset ? intake.acceptBacklog() : null);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(HttpServer.class)
	@ConditionalOnWebApplication(type = Type.REACTIVE)
	static class NettyConfiguration {

		@Bean
		NettyThreadModelCustomizer nettyThreadModelCustomizer(ConnectionIntake intake) {
			return new NettyThreadModelCustomizer(intake.acceptBacklog());
		}

	}

	/**
	 * WebFlux keeps I/O and reactive controller methods on its event loops; controller
	 * methods with other return types block, so they run on the request executor.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(WebFluxConfigurer.class)
	@ConditionalOnWebApplication(type = Type.REACTIVE)
	static class WebFluxConfiguration {

		@Bean
		ThreadModelWebFluxConfigurer threadModelWebFluxConfigurer(
				@Qualifier(ThreadModelAutoConfiguration.REQUEST_EXECUTOR_BEAN_NAME) ThreadModelExecutor executor) {
			return new ThreadModelWebFluxConfigurer(executor);
		}

	}

}
