package io.github.threadmodel.internal.servers;

import java.io.OutputStream;
import java.lang.reflect.Method;
import java.net.Socket;
import java.nio.channels.SelectionKey;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import io.github.threadmodel.internal.overload.ProbeLane;
import io.github.threadmodel.internal.overload.ProbePaths;

import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;
import org.apache.coyote.AbstractProtocol;
import org.apache.coyote.http11.Http11NioProtocol;
import org.apache.tomcat.util.net.NioChannel;
import org.apache.tomcat.util.net.NioEndpoint;
import org.apache.tomcat.util.net.SocketEvent;
import org.apache.tomcat.util.net.SocketProcessorBase;
import org.apache.tomcat.util.net.SocketWrapperBase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.util.ReflectionUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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
	void aConnectionWokenWithNothingToReadWaitsOnThePollerNotInTheRequestQueue(@TempDir Path baseDir) throws Exception {
		List<Runnable> handedToRequests = new CopyOnWriteArrayList<>();
		ExecutorService threads = Executors.newCachedThreadPool();
		Tomcat tomcat = new Tomcat();
		tomcat.setBaseDir(baseDir.toString());
		tomcat.getHost();
		Connector connector = new Connector();
		connector.setPort(0);
		try (ProbeLane probes = new ProbeLane(new ProbePaths(Set.of("/actuator/health")), "")) {
			new TomcatThreadModel((task) -> {
				handedToRequests.add(task);
				threads.execute(task);
			}, 100, new ConnectionAcceptors(), probes).apply(connector);
			tomcat.setConnector(connector);
			tomcat.start();
			try (Socket client = new Socket("localhost", connector.getLocalPort())) {
				client.setSoTimeout(10_000);
				NioEndpoint endpoint = endpointOf(connector);
				NioEndpoint.NioSocketWrapper wrapper = await()
					.until(() -> readInterested(endpoint), (connection) -> connection != null);
				// what the poller does when a connection is readable: it stops watching it and hands it over
				keyOf(wrapper).interestOps(0);
				wrapper.interestOps(0);
				endpoint.processSocket(wrapper, SocketEvent.OPEN_READ, true); // but no byte has arrived
				assertThat(handedToRequests).isEmpty();
				OutputStream out = client.getOutputStream();
				out.write("GET /orders HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
					.getBytes(StandardCharsets.US_ASCII));
				out.flush();
				String response = new String(client.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
				assertThat(response).startsWith("HTTP/1.1 404");
				assertThat(handedToRequests).hasSize(1);
			}
		}
		finally {
			tomcat.stop();
			tomcat.destroy();
			threads.shutdownNow();
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

	private static NioEndpoint endpointOf(Connector connector) {
		Method getEndpoint = ReflectionUtils.findMethod(AbstractProtocol.class, "getEndpoint");
		ReflectionUtils.makeAccessible(getEndpoint);
		return (NioEndpoint) ReflectionUtils.invokeMethod(getEndpoint, connector.getProtocolHandler());
	}

	/** The endpoint's one connection once its poller watches it for bytes, or {@code null}. */
	private static NioEndpoint.NioSocketWrapper readInterested(NioEndpoint endpoint) {
		for (SocketWrapperBase<NioChannel> connection : endpoint.getConnections()) {
			NioEndpoint.NioSocketWrapper wrapper = (NioEndpoint.NioSocketWrapper) connection;
			SelectionKey key = keyOf(wrapper);
			if (key != null && key.isValid() && (key.interestOps() & SelectionKey.OP_READ) != 0) {
				return wrapper;
			}
		}
		return null;
	}

	private static SelectionKey keyOf(NioEndpoint.NioSocketWrapper wrapper) {
		return wrapper.getSocket().getIOChannel().keyFor(wrapper.getPoller().getSelector());
	}

}
