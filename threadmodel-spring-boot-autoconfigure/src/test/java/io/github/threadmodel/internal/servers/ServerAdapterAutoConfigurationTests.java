package io.github.threadmodel.internal.servers;

import io.github.threadmodel.internal.line.SpringBootLine;
import io.github.threadmodel.testapp.TestServers;
import org.apache.catalina.startup.Tomcat;
import org.eclipse.jetty.server.Server;
import org.junit.jupiter.api.Test;
import reactor.netty.http.server.HttpServer;

import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.ApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each server present gets its adapter, on either Boot line: the customizers are each
 * line's own classes, so they are found by their bean names, the same on both lines.
 */
class ServerAdapterAutoConfigurationTests {

	private static final String TOMCAT = "tomcatThreadModelCustomizer";

	private static final String JETTY = "jettyThreadModelCustomizer";

	private static final String UNDERTOW = "undertowThreadModelCustomizer";

	private static final String NETTY = "nettyThreadModelCustomizer";

	private final WebApplicationContextRunner servlet = new WebApplicationContextRunner()
		.withConfiguration(TestServers.autoConfigurations());

	private final ReactiveWebApplicationContextRunner reactive = new ReactiveWebApplicationContextRunner()
		.withConfiguration(TestServers.autoConfigurations());

	@Test
	void servletServersEachGetTheirAdapter() {
		this.servlet.run((context) -> {
			assertThat(context).hasBean(TOMCAT).hasBean(JETTY).doesNotHaveBean(NETTY)
				.doesNotHaveBean(ThreadModelWebFluxConfigurer.class);
			assertThat(context.containsBean(UNDERTOW)).isEqualTo(TestServers.LINE == SpringBootLine.BOOT_3);
			// each line's factory types have these simple names
			assertThat(factoryType(context, TOMCAT)).isEqualTo("ConfigurableTomcatWebServerFactory");
			assertThat(factoryType(context, JETTY)).isEqualTo("ConfigurableJettyWebServerFactory");
			if (TestServers.LINE == SpringBootLine.BOOT_3) {
				assertThat(factoryType(context, UNDERTOW)).isEqualTo("UndertowServletWebServerFactory");
			}
		});
	}

	@Test
	void missingServerGetsNoAdapter() {
		this.servlet.withClassLoader(new FilteredClassLoader(Tomcat.class))
			.run((context) -> assertThat(context).doesNotHaveBean(TOMCAT).hasBean(JETTY));
		this.servlet.withClassLoader(new FilteredClassLoader(Server.class))
			.run((context) -> assertThat(context).doesNotHaveBean(JETTY).hasBean(TOMCAT));
		this.servlet.withClassLoader(new FilteredClassLoader("io.undertow"))
			.run((context) -> assertThat(context).doesNotHaveBean(UNDERTOW).hasBean(TOMCAT));
		this.reactive.withClassLoader(new FilteredClassLoader(HttpServer.class))
			.run((context) -> assertThat(context).doesNotHaveBean(NETTY)
				.hasSingleBean(ThreadModelWebFluxConfigurer.class));
	}

	@Test
	void reactiveApplicationGetsNettyAndWebFluxAdapters() {
		this.reactive.run((context) -> {
			assertThat(context).hasBean(NETTY)
				.hasSingleBean(ThreadModelWebFluxConfigurer.class)
				.doesNotHaveBean(UNDERTOW);
			assertThat(factoryType(context, NETTY)).isEqualTo("NettyReactiveWebServerFactory");
		});
	}

	private static String factoryType(ApplicationContext context, String customizer) {
		return context.getBean(customizer, ServerFactoryCustomizer.class).factoryType().getSimpleName();
	}

}
