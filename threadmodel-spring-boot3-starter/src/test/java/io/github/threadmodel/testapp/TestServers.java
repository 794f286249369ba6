package io.github.threadmodel.testapp;

import java.util.List;
import java.util.Locale;

import io.github.threadmodel.internal.line.SpringBootLine;
import io.github.threadmodel.autoconfigure.ThreadModelAutoConfiguration;
import io.github.threadmodel.autoconfigure.ThreadModelEndpointAutoConfiguration;
import io.github.threadmodel.autoconfigure.ThreadModelMetricsAutoConfiguration;
import io.github.threadmodel.autoconfigure.ThreadModelWebFluxAutoConfiguration;
import io.github.threadmodel.boot3.ThreadModelWebServerAutoConfiguration;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.metrics.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.security.reactive.ReactiveManagementWebSecurityAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.security.servlet.ManagementWebSecurityAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.security.reactive.ReactiveSecurityAutoConfiguration;
import org.springframework.boot.autoconfigure.security.servlet.SecurityAutoConfiguration;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.autoconfigure.websocket.servlet.WebSocketServletAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.embedded.jetty.JettyServletWebServerFactory;
import org.springframework.boot.web.embedded.netty.NettyReactiveWebServerFactory;
import org.springframework.boot.web.embedded.tomcat.TomcatServletWebServerFactory;
import org.springframework.boot.web.embedded.undertow.UndertowServletWebServerFactory;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * Starts the test application on each embedded server, on a random port, with the
 * management endpoints on a port of their own (so that the endpoint answers while all
 * request threads are busy). The servers and Spring Boot classes of Spring Boot 3.5; the
 * tests that use it are shared by both starters.
 */
public enum TestServers {

	TOMCAT(TomcatApp.class, "servlet"), JETTY(JettyApp.class, "servlet"), UNDERTOW(UndertowApp.class, "servlet"),
	NETTY(NettyApp.class, "reactive");

	/**
	 * The Spring Boot line these tests run on.
	 */
	public static final SpringBootLine LINE = SpringBootLine.BOOT_3;

	private final Class<?> application;

	private final String webApplicationType;

	TestServers(Class<?> application, String webApplicationType) {
		this.application = application;
		this.webApplicationType = webApplicationType;
	}

	/**
	 * The starter's auto-configurations with the ones of Spring Boot that they build on.
	 * @return the auto-configurations for an application context runner
	 */
	public static AutoConfigurations autoConfigurations() {
		return AutoConfigurations.of(ThreadModelAutoConfiguration.class, ThreadModelWebServerAutoConfiguration.class,
				ThreadModelEndpointAutoConfiguration.class, ThreadModelMetricsAutoConfiguration.class,
				ThreadModelWebFluxAutoConfiguration.class,
				TaskExecutionAutoConfiguration.class, EndpointAutoConfiguration.class, MetricsAutoConfiguration.class,
				SimpleMetricsExportAutoConfiguration.class);
	}

	public String id() {
		return name().toLowerCase(Locale.ROOT);
	}

	public ConfigurableApplicationContext start(String... properties) {
		String[] args = Arguments.of(List.of("server.port=0", "management.server.port=0",
				"management.endpoints.web.exposure.include=threadmodel,metrics",
				"spring.main.web-application-type=" + this.webApplicationType, "spring.main.banner-mode=off"),
				properties);
		return new SpringApplicationBuilder(this.application).run(args);
	}

	/**
	 * The test class path holds every server, so Spring Boot's WebSocket auto-configuration
	 * would set Tomcat's WebSocket support up on Jetty too; the tests need no WebSockets.
	 * Spring Security is on the class path for the test that secures switching, and off
	 * everywhere else.
	 */
	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration(exclude = { WebSocketServletAutoConfiguration.class, SecurityAutoConfiguration.class,
			ManagementWebSecurityAutoConfiguration.class, ReactiveSecurityAutoConfiguration.class,
			ReactiveManagementWebSecurityAutoConfiguration.class })
	@Import(ThreadController.class)
	public static class TestApp {

	}

	/**
	 * The test application on Tomcat, for tests that start it with {@code @SpringBootTest}
	 * (with every server on the class path, Spring Boot 3.5 would pick Tomcat and Boot 4
	 * Jetty).
	 */
	@Import(TestApp.class)
	public static class TomcatApp {

		@Bean
		TomcatServletWebServerFactory tomcatFactory() {
			return new TomcatServletWebServerFactory();
		}

	}

	@Import(TestApp.class)
	static class JettyApp {

		@Bean
		JettyServletWebServerFactory jettyFactory() {
			return new JettyServletWebServerFactory();
		}

	}

	@Import(TestApp.class)
	static class UndertowApp {

		@Bean
		UndertowServletWebServerFactory undertowFactory() {
			return new UndertowServletWebServerFactory();
		}

	}

	/**
	 * The test application on Reactor Netty, for tests that start it with
	 * {@code @SpringBootTest} and {@code spring.main.web-application-type=reactive} (the
	 * servlet servers are on the class path too).
	 */
	@Import(TestApp.class)
	public static class NettyApp {

		@Bean
		NettyReactiveWebServerFactory nettyFactory() {
			return new NettyReactiveWebServerFactory();
		}

	}

}
