package io.github.threadmodel.boot3;

import java.util.concurrent.Executor;

import io.github.threadmodel.internal.overload.ProbeLane;
import io.github.threadmodel.internal.servers.ConnectionIntake;
import io.github.threadmodel.internal.servers.JettyThreadModel;

import org.springframework.boot.web.embedded.jetty.ConfigurableJettyWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.core.Ordered;

/**
 * Hands the request executor to the Jetty server ({@link JettyThreadModel}): its thread
 * pool and its connectors.
 */
class JettyThreadModelCustomizer implements WebServerFactoryCustomizer<ConfigurableJettyWebServerFactory>, Ordered {

	private final Executor requests;

	private final ConnectionIntake intake;

	private final ProbeLane probes;

	JettyThreadModelCustomizer(Executor requests, ConnectionIntake intake, ProbeLane probes) {
		this.requests = requests;
		this.intake = intake;
		this.probes = probes;
	}

	@Override
	public void customize(ConfigurableJettyWebServerFactory factory) {
		JettyThreadModel jetty = JettyThreadModel.of(this.requests, this.intake, this.probes);
		factory.setThreadPool(jetty.threadPool());
		factory.addServerCustomizers(jetty::apply);
	}

	@Override
	public int getOrder() {
		return ThreadModelWebServerAutoConfiguration.CUSTOMIZER_ORDER;
	}

}
