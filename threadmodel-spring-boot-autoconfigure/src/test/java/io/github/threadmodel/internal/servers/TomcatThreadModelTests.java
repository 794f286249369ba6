package io.github.threadmodel.internal.servers;

import java.util.Set;
import java.util.concurrent.Executor;

import io.github.threadmodel.internal.overload.ProbeLane;
import io.github.threadmodel.internal.overload.ProbePaths;

import org.apache.catalina.connector.Connector;
import org.apache.coyote.http11.Http11NioProtocol;
import org.apache.tomcat.util.net.SocketProcessorBase;
import org.apache.tomcat.util.net.SocketWrapperBase;
import org.junit.jupiter.api.Test;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.util.ReflectionUtils;

import static org.assertj.core.api.Assertions.assertThat;

class TomcatThreadModelTests {

	private final Executor executor = Runnable::run;

	@Test
	void connectorRunsRequestsOnTheExecutorWithTheBacklog() {
		Connector connector = new Connector();
		new TomcatThreadModel(this.executor, 4096, new ConnectionAcceptors(), null).apply(connector);
		Http11NioProtocol protocol = (Http11NioProtocol) connector.getProtocolHandler();
		assertThat(protocol.getExecutor()).isSameAs(this.executor);
		assertThat(protocol.getAcceptCount()).isEqualTo(4096);
	}

	@Test
	void connectorSendsProbesToTheirLaneWhenThereIsOne() {
		Connector connector = new Connector();
		try (ProbeLane probes = new ProbeLane(new ProbePaths(Set.of("/actuator/health")), "")) {
			new TomcatThreadModel(this.executor, 4096, new ConnectionAcceptors(), probes).apply(connector);
			assertThat(connector.getProtocolHandler().getExecutor()).isInstanceOf(TomcatProbeRouting.class);
		}
	}

	@Test
	void nativeImageMayReachWhatTheProbeRoutingReads() {
		RuntimeHints hints = new RuntimeHints();
		new TomcatThreadModel.Hints().registerHints(hints, getClass().getClassLoader());
		for (String field : new String[] { "socketWrapper", "event" }) {
			assertThat(RuntimeHintsPredicates.reflection()
				.onField(ReflectionUtils.findField(SocketProcessorBase.class, field))).accepts(hints);
		}
		// read from the hint itself: the predicate for an invoked method differs between the Spring lines
		assertThat(hints.reflection().getTypeHint(SocketWrapperBase.class).methods())
			.anySatisfy((method) -> assertThat(method.getName() + " " + method.getMode()).isEqualTo("getLock INVOKE"));
	}

	@Test
	void backlogIsLeftToTomcatWhenNoneIsGiven() {
		Connector connector = new Connector();
		int tomcats = ((Http11NioProtocol) connector.getProtocolHandler()).getAcceptCount();
		new TomcatThreadModel(this.executor, null, new ConnectionAcceptors(), null).apply(connector);
		assertThat(((Http11NioProtocol) connector.getProtocolHandler()).getAcceptCount()).isEqualTo(tomcats);
	}

}
