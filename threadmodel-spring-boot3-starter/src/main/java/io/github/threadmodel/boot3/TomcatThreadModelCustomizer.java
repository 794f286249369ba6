package io.github.threadmodel.boot3;

import io.github.threadmodel.servers.ServerCustomizers;
import io.github.threadmodel.servers.TomcatThreadModel;

import org.springframework.boot.web.embedded.tomcat.ConfigurableTomcatWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.core.Ordered;

/**
 * Applies {@link TomcatThreadModel} to every connector of the Tomcat server.
 */
class TomcatThreadModelCustomizer implements WebServerFactoryCustomizer<ConfigurableTomcatWebServerFactory>, Ordered {

	private final TomcatThreadModel tomcat;

	TomcatThreadModelCustomizer(TomcatThreadModel tomcat) {
		this.tomcat = tomcat;
	}

	@Override
	public void customize(ConfigurableTomcatWebServerFactory factory) {
		factory.addConnectorCustomizers(this.tomcat::apply);
	}

	@Override
	public int getOrder() {
		return ServerCustomizers.ORDER;
	}

}
