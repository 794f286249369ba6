package io.github.threadmodel.boot4;

import io.github.threadmodel.servers.JettyThreadModel;
import io.github.threadmodel.servers.ServerCustomizers;

import org.springframework.boot.jetty.ConfigurableJettyWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.core.Ordered;

/**
 * Applies {@link JettyThreadModel} to the Jetty server: its thread pool and its connectors.
 */
class JettyThreadModelCustomizer implements WebServerFactoryCustomizer<ConfigurableJettyWebServerFactory>, Ordered {

	private final JettyThreadModel jetty;

	JettyThreadModelCustomizer(JettyThreadModel jetty) {
		this.jetty = jetty;
	}

	@Override
	public void customize(ConfigurableJettyWebServerFactory factory) {
		factory.setThreadPool(this.jetty.threadPool());
		factory.addServerCustomizers(this.jetty::apply);
	}

	@Override
	public int getOrder() {
		return ServerCustomizers.ORDER;
	}

}
