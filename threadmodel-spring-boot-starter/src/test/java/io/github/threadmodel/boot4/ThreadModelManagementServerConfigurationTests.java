package io.github.threadmodel.boot4;

import java.util.concurrent.Executor;

import io.github.threadmodel.autoconfigure.ThreadModelAutoConfiguration;
import io.github.threadmodel.internal.servers.ServerFactoryCustomizer;
import org.apache.catalina.connector.Connector;
import org.apache.coyote.http11.Http11NioProtocol;
import org.apache.tomcat.util.threads.VirtualThreadExecutor;
import org.eclipse.jetty.util.thread.VirtualThreadPool;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.jetty.servlet.JettyServletWebServerFactory;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The conditions of {@link ThreadModelManagementServerConfiguration}, and what its
 * customizers do to a factory that Spring Boot's virtual-thread customizers have seen (the
 * probes it keeps answering: {@code ProbeLaneIntegrationTests}).
 */
class ThreadModelManagementServerConfigurationTests {

	/** The application's context, with the starter's request executor. */
	private final GenericApplicationContext parent = new GenericApplicationContext();

	/** The management server's child context. */
	private final ApplicationContextRunner runner = new ApplicationContextRunner().withParent(this.parent)
		.withUserConfiguration(ThreadModelManagementServerConfiguration.class);

	ThreadModelManagementServerConfigurationTests() {
		this.parent.registerBean(ThreadModelAutoConfiguration.REQUEST_EXECUTOR_BEAN_NAME, Executor.class,
				() -> Runnable::run);
		this.parent.refresh();
	}

	@AfterEach
	void closeParent() {
		this.parent.close();
	}

	@Test
	void withoutSpringBootsVirtualThreadsItAddsNothing() {
		this.runner.run((context) -> assertThat(context).doesNotHaveBean(ServerFactoryCustomizer.class));
		this.runner.withPropertyValues("spring.threads.virtual.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(ServerFactoryCustomizer.class));
	}

	@Test
	void withoutTheStartersRequestExecutorItAddsNothing() {
		new ApplicationContextRunner().withUserConfiguration(ThreadModelManagementServerConfiguration.class)
			.withPropertyValues("spring.threads.virtual.enabled=true")
			.run((context) -> assertThat(context).doesNotHaveBean(ServerFactoryCustomizer.class));
	}

	@Test
	void tomcatGetsItsOwnPlatformThreadsBack() {
		this.runner.withPropertyValues("spring.threads.virtual.enabled=true").run((context) -> {
			TomcatServletWebServerFactory factory = new TomcatServletWebServerFactory();
			context.getBeansOfType(ServerFactoryCustomizer.class).values().forEach((c) -> c.customize(factory));
			Connector virtual = new Connector(Http11NioProtocol.class.getName());
			// as Spring Boot's TomcatVirtualThreadsWebServerFactoryCustomizer leaves it
			virtual.getProtocolHandler().setExecutor(new VirtualThreadExecutor("tomcat-handler-"));
			factory.getConnectorCustomizers().forEach((c) -> c.customize(virtual));
			assertThat(virtual.getProtocolHandler().getExecutor()).isNull();
			// an executor of the application's is left alone
			Connector own = new Connector(Http11NioProtocol.class.getName());
			Executor executor = Runnable::run;
			own.getProtocolHandler().setExecutor(executor);
			factory.getConnectorCustomizers().forEach((c) -> c.customize(own));
			assertThat(own.getProtocolHandler().getExecutor()).isSameAs(executor);
		});
	}

	@Test
	void jettyGetsNoneOfSpringBootsPools() {
		this.runner.withPropertyValues("spring.threads.virtual.enabled=true").run((context) -> {
			JettyServletWebServerFactory factory = new JettyServletWebServerFactory();
			factory.setThreadPool(new VirtualThreadPool());
			context.getBeansOfType(ServerFactoryCustomizer.class).values().forEach((c) -> c.customize(factory));
			assertThat(factory.getThreadPool()).isNull();
		});
	}

}
