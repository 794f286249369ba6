package io.github.threadmodel.autoconfigure;

import java.util.concurrent.Executor;

import org.apache.coyote.AbstractProtocol;
import org.apache.coyote.ProtocolHandler;

import org.springframework.boot.web.embedded.tomcat.ConfigurableTomcatWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.core.Ordered;

/**
 * Makes Tomcat's protocol handler run requests on the given executor. It is a connector
 * customizer, so it runs after Spring Boot's own protocol-handler customizers (including
 * the one for {@code spring.threads.virtual.enabled}) and wins over them.
 */
public class TomcatThreadModelCustomizer
		implements WebServerFactoryCustomizer<ConfigurableTomcatWebServerFactory>, Ordered {

	private final Executor executor;

	private final Integer acceptCount;

	/**
	 * Creates a customizer.
	 * @param executor the executor for request handling
	 * @param acceptCount the accept backlog to set, or {@code null} to leave Tomcat's
	 */
	public TomcatThreadModelCustomizer(Executor executor, Integer acceptCount) {
		this.executor = executor;
		this.acceptCount = acceptCount;
	}

	@Override
	public void customize(ConfigurableTomcatWebServerFactory factory) {
		factory.addConnectorCustomizers((connector) -> {
			ProtocolHandler handler = connector.getProtocolHandler();
			handler.setExecutor(this.executor);
			if (this.acceptCount != null && handler instanceof AbstractProtocol<?> protocol) {
				protocol.setAcceptCount(this.acceptCount);
			}
		});
	}

	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

}
