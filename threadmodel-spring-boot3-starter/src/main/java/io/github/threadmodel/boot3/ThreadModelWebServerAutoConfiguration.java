package io.github.threadmodel.boot3;

import io.github.threadmodel.actuate.ServerKind;
import io.github.threadmodel.actuate.StartupTimeline;
import io.github.threadmodel.autoconfigure.ThreadModelAutoConfiguration;
import io.github.threadmodel.executor.ConnectionIntake;
import io.github.threadmodel.executor.ThreadModelExecutor;
import io.github.threadmodel.servers.JettyThreadModel;
import io.github.threadmodel.servers.NettyThreadModel;
import io.github.threadmodel.servers.TomcatThreadModel;
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
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.boot.web.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Auto-configuration that hands each embedded web server's request work to the
 * starter's request executor on Spring Boot 3.5 (Tomcat, Jetty, Undertow and Reactor Netty), through the server factories
 * and events of this Boot line; what the adapters do is shared with the other line.
 */
@AutoConfiguration(after = ThreadModelAutoConfiguration.class)
@ConditionalOnWebApplication
public final class ThreadModelWebServerAutoConfiguration {

	@Bean
	ServerKind threadModelServerKind(ApplicationContext context) {
		return new ServerKind(
				() -> (context instanceof WebServerApplicationContext web) ? web.getWebServer() : null);
	}

	@Bean
	StartupTimeline threadModelStartupTimeline() {
		return new StartupTimeline(WebServerInitializedEvent.class);
	}

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
			return new TomcatThreadModelCustomizer(new TomcatThreadModel(executor,
					unset(environment, "server.tomcat.accept-count") ? intake.acceptBacklog() : null));
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ Server.class, QueuedThreadPool.class })
	static class JettyConfiguration {

		@Bean
		JettyThreadModelCustomizer jettyThreadModelCustomizer(
				@Qualifier(ThreadModelAutoConfiguration.REQUEST_EXECUTOR_BEAN_NAME) ThreadModelExecutor executor,
				ConnectionIntake intake) {
			return new JettyThreadModelCustomizer(new JettyThreadModel(executor, intake.acceptBacklog()));
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
			return new NettyThreadModelCustomizer(new NettyThreadModel(intake.acceptBacklog()));
		}

	}

}
