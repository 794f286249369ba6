package io.github.threadmodel.boot3;

import java.util.concurrent.Executor;

import io.github.threadmodel.internal.actuate.ServerKind;
import io.github.threadmodel.internal.actuate.StartupTimeline;
import io.github.threadmodel.autoconfigure.ThreadModelAutoConfiguration;
import io.github.threadmodel.internal.overload.ProbeLane;
import io.github.threadmodel.internal.servers.ConnectionIntake;
import io.github.threadmodel.internal.servers.NettyThreadModel;
import io.github.threadmodel.internal.servers.ServerFactoryCustomizer;
import io.github.threadmodel.internal.servers.JettyThreadModel;
import io.github.threadmodel.internal.servers.TomcatThreadModel;
import io.undertow.Undertow;
import io.undertow.servlet.api.DeploymentInfo;
import org.apache.catalina.startup.Tomcat;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.thread.VirtualThreadPool;
import reactor.netty.http.server.HttpServer;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.embedded.jetty.ConfigurableJettyWebServerFactory;
import org.springframework.boot.web.embedded.netty.NettyReactiveWebServerFactory;
import org.springframework.boot.web.embedded.tomcat.ConfigurableTomcatWebServerFactory;
import org.springframework.boot.web.embedded.undertow.UndertowServletWebServerFactory;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.boot.web.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.ImportRuntimeHints;

/**
 * Auto-configuration that hands each embedded web server's request work to the
 * starter's request executor on Spring Boot 3.5 (Tomcat, Jetty, Undertow and Reactor Netty), through this line's server factories; what the
 * adapters do is shared with the other line (package {@code io.github.threadmodel.internal.servers}). It also names
 * the web server and records when it started, from this line's web server context and
 * event.
 * @since 0.1.0
 */
@AutoConfiguration(after = ThreadModelAutoConfiguration.class)
@ConditionalOnWebApplication
public final class ThreadModelWebServerAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	ServerKind threadModelServerKind(ApplicationContext context) {
		return new ServerKind(
				() -> (context instanceof WebServerApplicationContext web) ? web.getWebServer() : null);
	}

	@Bean
	@ConditionalOnMissingBean
	StartupTimeline threadModelStartupTimeline() {
		return new StartupTimeline(WebServerInitializedEvent.class);
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(Tomcat.class)
	@ImportRuntimeHints(TomcatThreadModel.Hints.class)
	static class TomcatConfiguration {

		@Bean
		ServerFactoryCustomizer<ConfigurableTomcatWebServerFactory> tomcatThreadModelCustomizer(
				@Qualifier(ThreadModelAutoConfiguration.REQUEST_EXECUTOR_BEAN_NAME) Executor requests,
				ConnectionIntake intake, ObjectProvider<ProbeLane> probes) {
			ProbeLane probeLane = probes.getIfAvailable();
			return new ServerFactoryCustomizer<>(ConfigurableTomcatWebServerFactory.class, (factory) -> factory
				.addConnectorCustomizers(TomcatThreadModel.of(requests, intake, probeLane)::apply));
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ Server.class, VirtualThreadPool.class })
	@ImportRuntimeHints(JettyThreadModel.Hints.class)
	static class JettyConfiguration {

		@Bean
		ServerFactoryCustomizer<ConfigurableJettyWebServerFactory> jettyThreadModelCustomizer(
				@Qualifier(ThreadModelAutoConfiguration.REQUEST_EXECUTOR_BEAN_NAME) Executor requests,
				ConnectionIntake intake, ObjectProvider<ProbeLane> probes) {
			ProbeLane probeLane = probes.getIfAvailable();
			return new ServerFactoryCustomizer<>(ConfigurableJettyWebServerFactory.class, (factory) -> {
				JettyThreadModel jetty = JettyThreadModel.of(requests, intake, probeLane);
				factory.setThreadPool(jetty.threadPool());
				factory.addServerCustomizers(jetty::apply);
			});
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass({ Undertow.class, DeploymentInfo.class })
	@ConditionalOnWebApplication(type = Type.SERVLET)
	@ImportRuntimeHints(UndertowBufferPool.Hints.class)
	static class UndertowConfiguration {

		@Bean
		ServerFactoryCustomizer<UndertowServletWebServerFactory> undertowThreadModelCustomizer(
				@Qualifier(ThreadModelAutoConfiguration.REQUEST_EXECUTOR_BEAN_NAME) Executor requests,
				ConnectionIntake intake, ObjectProvider<ProbeLane> probes) {
			UndertowThreadModel undertow = new UndertowThreadModel(requests, intake.acceptBacklogUnlessSet(
					"server.undertow.options.socket.BACKLOG", "server.undertow.options.socket.backlog"),
					probes.getIfAvailable());
			return new ServerFactoryCustomizer<>(UndertowServletWebServerFactory.class, undertow::apply);
		}

		@Bean
		UndertowRequestThreadContext undertowRequestThreadContext() {
			return new UndertowRequestThreadContext();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(HttpServer.class)
	@ConditionalOnWebApplication(type = Type.REACTIVE)
	static class NettyConfiguration {

		@Bean
		ServerFactoryCustomizer<NettyReactiveWebServerFactory> nettyThreadModelCustomizer(ConnectionIntake intake) {
			NettyThreadModel netty = new NettyThreadModel(intake.acceptBacklog());
			return new ServerFactoryCustomizer<>(NettyReactiveWebServerFactory.class,
					(factory) -> factory.addServerCustomizers(netty::apply));
		}

	}

}
