package io.github.threadmodel.testapp;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import io.github.threadmodel.internal.line.SpringBootLine;
import io.github.threadmodel.autoconfigure.ThreadModelAutoConfiguration;
import io.github.threadmodel.autoconfigure.ThreadModelEndpointAutoConfiguration;
import io.github.threadmodel.autoconfigure.ThreadModelMetricsAutoConfiguration;
import io.github.threadmodel.autoconfigure.ThreadModelWebFluxAutoConfiguration;
import io.github.threadmodel.boot4.ThreadModelWebServerAutoConfiguration;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.jetty.servlet.JettyServletWebServerFactory;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.reactor.netty.NettyReactiveWebServerFactory;
import org.springframework.boot.security.autoconfigure.ReactiveUserDetailsServiceAutoConfiguration;
import org.springframework.boot.security.autoconfigure.SecurityAutoConfiguration;
import org.springframework.boot.security.autoconfigure.UserDetailsServiceAutoConfiguration;
import org.springframework.boot.security.autoconfigure.actuate.web.reactive.ReactiveManagementWebSecurityAutoConfiguration;
import org.springframework.boot.security.autoconfigure.actuate.web.servlet.ManagementWebSecurityAutoConfiguration;
import org.springframework.boot.security.autoconfigure.web.reactive.ReactiveWebSecurityAutoConfiguration;
import org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * Starts the test application on each embedded server, on a random port, with the
 * management endpoints on a port of their own (so that the endpoint answers while all
 * request threads are busy). The servers and Spring Boot classes of Spring Boot 4; the
 * tests that use it are shared by both starters.
 */
public enum TestServers {

	TOMCAT(TomcatApp.class, "servlet", "jetty", "netty"), JETTY(JettyApp.class, "servlet", "tomcat", "netty"),
	NETTY(NettyApp.class, "reactive", "tomcat", "jetty");

	/**
	 * Each server's auto-configuration of a separate management server. The test class path
	 * holds every server, and in Boot 4 each would define the management child context's
	 * factory under the same name; an application has one server.
	 */
	private static final Map<String, String> MANAGEMENT_CONTEXTS = Map.of("tomcat",
			"org.springframework.boot.tomcat.autoconfigure.actuate.web.server.TomcatServletManagementContextAutoConfiguration,"
					+ "org.springframework.boot.tomcat.autoconfigure.actuate.web.server.TomcatReactiveManagementContextAutoConfiguration",
			"jetty",
			"org.springframework.boot.jetty.autoconfigure.actuate.web.server.JettyServletManagementContextAutoConfiguration,"
					+ "org.springframework.boot.jetty.autoconfigure.actuate.web.server.JettyReactiveManagementContextAutoConfiguration",
			"netty",
			"org.springframework.boot.reactor.netty.autoconfigure.actuate.web.server.NettyReactiveManagementContextAutoConfiguration");

	/**
	 * The Spring Boot line these tests run on.
	 */
	public static final SpringBootLine LINE = SpringBootLine.BOOT_4;

	private final Class<?> application;

	private final String webApplicationType;

	private final String[] otherServers;

	TestServers(Class<?> application, String webApplicationType, String... otherServers) {
		this.application = application;
		this.webApplicationType = webApplicationType;
		this.otherServers = otherServers;
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
				"spring.main.web-application-type=" + this.webApplicationType, "spring.main.banner-mode=off",
				"spring.autoconfigure.exclude=" + Arrays.stream(this.otherServers)
					.map(MANAGEMENT_CONTEXTS::get)
					.collect(Collectors.joining(","))), properties);
		return new SpringApplicationBuilder(this.application).run(args);
	}

	/**
	 * Spring Security is on the class path for the test that secures switching, and off
	 * everywhere else.
	 */
	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration(exclude = { SecurityAutoConfiguration.class, ServletWebSecurityAutoConfiguration.class,
			UserDetailsServiceAutoConfiguration.class, ManagementWebSecurityAutoConfiguration.class,
			ReactiveWebSecurityAutoConfiguration.class, ReactiveUserDetailsServiceAutoConfiguration.class,
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
