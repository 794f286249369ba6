package io.github.threadmodel.internal.servers;

import java.util.List;
import java.util.concurrent.Executor;

import io.github.threadmodel.internal.overload.ProbeLane;
import org.apache.catalina.connector.Connector;
import org.apache.coyote.AbstractProtocol;
import org.apache.coyote.ProtocolHandler;
import org.apache.tomcat.util.net.SocketProcessorBase;
import org.apache.tomcat.util.net.SocketWrapperBase;

import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * Makes a Tomcat connector's protocol handler run requests on the given executor. Each
 * starter applies it as a connector customizer, which Tomcat runs after the
 * protocol-handler customizers (including Spring Boot's for
 * {@code spring.threads.virtual.enabled}), so it wins over them. With a {@link ProbeLane},
 * health probes are told from their request line and run there instead
 * ({@link TomcatProbeRouting}).
 */
public final class TomcatThreadModel {

	private final Executor executor;

	private final Integer acceptCount;

	private final ConnectionAcceptors acceptors;

	private final ProbeLane probes;

	/**
	 * Creates the adapter.
	 * @param executor the executor for request handling
	 * @param acceptCount the accept backlog to set, or {@code null} to leave Tomcat's
	 * @param acceptors where to register how each connector stops taking new connections
	 * @param probes the probes' lane, or {@code null} to run probes on the executor too
	 */
	TomcatThreadModel(Executor executor, Integer acceptCount, ConnectionAcceptors acceptors, ProbeLane probes) {
		this.executor = executor;
		this.acceptCount = acceptCount;
		this.acceptors = acceptors;
		this.probes = probes;
	}

	/**
	 * The adapter for the starter's connection intake: its backlog, unless the user set
	 * {@code server.tomcat.accept-count}.
	 * @param executor the executor for request handling
	 * @param intake the connection intake
	 * @param probes the probes' lane, or {@code null} to run probes on the executor too
	 * @return the adapter
	 */
	public static TomcatThreadModel of(Executor executor, ConnectionIntake intake, ProbeLane probes) {
		return new TomcatThreadModel(executor, intake.acceptBacklogUnlessSet("server.tomcat.accept-count"),
				intake.acceptors(), probes);
	}

	/**
	 * Applies the executor and the backlog to a connector.
	 * @param connector the connector
	 */
	public void apply(Connector connector) {
		ProtocolHandler handler = connector.getProtocolHandler();
		if (this.probes != null) {
			handler.setExecutor(new TomcatProbeRouting(this.executor, this.probes));
		}
		else {
			handler.setExecutor(this.executor);
		}
		// closes the server socket only, as Spring Boot's graceful shutdown does after it,
		// which then finds it closed
		this.acceptors.add(handler::closeServerSocketGraceful);
		if (this.acceptCount != null && handler instanceof AbstractProtocol<?> protocol) {
			protocol.setAcceptCount(this.acceptCount);
		}
	}

	/**
	 * What a native image needs for {@link TomcatProbeRouting}'s look at a connection: the
	 * processor's fields and the wrapper's lock, which it reaches reflectively.
	 */
	public static class Hints implements RuntimeHintsRegistrar {

		@Override
		public void registerHints(RuntimeHints hints, ClassLoader classLoader) {
			hints.reflection()
				.registerType(SocketProcessorBase.class, (type) -> type.withField("socketWrapper").withField("event"));
			hints.reflection()
				.registerType(SocketWrapperBase.class,
						(type) -> type.withMethod("getLock", List.of(), ExecutableMode.INVOKE));
		}

	}

}
