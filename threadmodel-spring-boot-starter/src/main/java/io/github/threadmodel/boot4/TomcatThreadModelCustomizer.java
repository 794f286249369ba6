package io.github.threadmodel.boot4;

import java.util.concurrent.Executor;

import io.github.threadmodel.internal.overload.ProbeLane;
import io.github.threadmodel.internal.servers.ConnectionIntake;
import io.github.threadmodel.internal.servers.TomcatThreadModel;

import org.springframework.boot.tomcat.ConfigurableTomcatWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.core.Ordered;

/**
 * Hands the request executor, and the probes' lane when there is one, to every connector
 * of the Tomcat server ({@link TomcatThreadModel}).
 */
class TomcatThreadModelCustomizer implements WebServerFactoryCustomizer<ConfigurableTomcatWebServerFactory>, Ordered {

	private final Executor requests;

	private final ConnectionIntake intake;

	private final ProbeLane probes;

	TomcatThreadModelCustomizer(Executor requests, ConnectionIntake intake, ProbeLane probes) {
		this.requests = requests;
		this.intake = intake;
		this.probes = probes;
	}

	@Override
	public void customize(ConfigurableTomcatWebServerFactory factory) {
		factory.addConnectorCustomizers(TomcatThreadModel.of(this.requests, this.intake, this.probes)::apply);
	}

	@Override
	public int getOrder() {
		return ThreadModelWebServerAutoConfiguration.CUSTOMIZER_ORDER;
	}

}
