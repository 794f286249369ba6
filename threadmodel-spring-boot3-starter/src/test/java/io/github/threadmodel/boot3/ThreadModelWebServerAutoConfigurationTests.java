package io.github.threadmodel.boot3;

import io.github.threadmodel.servers.ThreadModelWebFluxConfigurer;
import io.github.threadmodel.testapp.TestServers;
import io.undertow.Undertow;
import org.apache.catalina.startup.Tomcat;
import org.eclipse.jetty.server.Server;
import org.junit.jupiter.api.Test;
import reactor.netty.http.server.HttpServer;

import org.springframework.boot.autoconfigure.web.embedded.JettyVirtualThreadsWebServerFactoryCustomizer;
import org.springframework.boot.autoconfigure.web.embedded.TomcatVirtualThreadsWebServerFactoryCustomizer;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

class ThreadModelWebServerAutoConfigurationTests {

	private final WebApplicationContextRunner servlet = new WebApplicationContextRunner()
		.withConfiguration(TestServers.autoConfigurations());

	private final ReactiveWebApplicationContextRunner reactive = new ReactiveWebApplicationContextRunner()
		.withConfiguration(TestServers.autoConfigurations());

	@Test
	void servletServersEachGetTheirAdapter() {
		this.servlet.run((context) -> assertThat(context).hasSingleBean(TomcatThreadModelCustomizer.class)
			.hasSingleBean(JettyThreadModelCustomizer.class)
			.hasSingleBean(UndertowThreadModelCustomizer.class)
			.doesNotHaveBean(NettyThreadModelCustomizer.class)
			.doesNotHaveBean(ThreadModelWebFluxConfigurer.class));
	}

	@Test
	void missingServerGetsNoAdapter() {
		this.servlet.withClassLoader(new FilteredClassLoader(Tomcat.class))
			.run((context) -> assertThat(context).doesNotHaveBean(TomcatThreadModelCustomizer.class)
				.hasSingleBean(JettyThreadModelCustomizer.class));
		this.servlet.withClassLoader(new FilteredClassLoader(Server.class))
			.run((context) -> assertThat(context).doesNotHaveBean(JettyThreadModelCustomizer.class)
				.hasSingleBean(TomcatThreadModelCustomizer.class));
		this.servlet.withClassLoader(new FilteredClassLoader(Undertow.class))
			.run((context) -> assertThat(context).doesNotHaveBean(UndertowThreadModelCustomizer.class)
				.hasSingleBean(TomcatThreadModelCustomizer.class));
		this.reactive.withClassLoader(new FilteredClassLoader(HttpServer.class))
			.run((context) -> assertThat(context).doesNotHaveBean(NettyThreadModelCustomizer.class)
				.hasSingleBean(ThreadModelWebFluxConfigurer.class));
	}

	@Test
	void reactiveApplicationGetsNettyAndWebFluxAdapters() {
		this.reactive.run((context) -> assertThat(context).hasSingleBean(NettyThreadModelCustomizer.class)
			.hasSingleBean(ThreadModelWebFluxConfigurer.class)
			.doesNotHaveBean(UndertowThreadModelCustomizer.class));
	}

}
