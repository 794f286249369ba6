package io.github.threadmodel.internal.servers;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executor;

import io.github.threadmodel.executor.ThreadModel;
import io.github.threadmodel.executor.ThreadModelExecutor;
import io.github.threadmodel.internal.overload.ProbeLane;
import org.eclipse.jetty.server.ConnectionFactory;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.internal.HttpConnection;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.ThreadPool;
import org.eclipse.jetty.util.thread.VirtualThreadPool;

import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;

/**
 * Makes Jetty 12 run request handling on the given executor while its acceptors and
 * selectors run on threads of their own, named {@code jetty-io}.
 * <p>
 * Jetty hands every task that may block (parsing a request and calling the servlet) to
 * its thread pool's "virtual threads executor" when one is set; the executor given here
 * takes that place whatever its model. Jetty would instead run such a task on the
 * selecting thread itself (execute-produce-consume) whenever its pool can start another
 * selecting thread at once ({@code TryExecutor}); the pools here never offer that, so
 * that every request is admitted by the executor.
 * <p>
 * The acceptors and selecting threads:
 * <ul>
 * <li>platform threads (a {@link QueuedThreadPool}, as Spring Boot's own without virtual
 * threads) when the connections send health probes to their lane ({@link JettyProbeRouting},
 * the starter's default in a servlet application): a probe is told on the selecting
 * thread, which must not wait for a carrier behind busy virtual threads;</li>
 * <li>otherwise, the model the executor has when the server is made, kept after a switch:
 * virtual threads, as in Spring Boot's own {@code VirtualThreadPool}, whose hand-off to a
 * virtual request thread stays on the carriers (measured faster on keep-alive connections
 * than from a platform selector); platform threads on the platform model, whose hand-off
 * to a platform request thread measured faster than from a virtual selector.</li>
 * </ul>
 * Either pool replaces the one Spring Boot sets, whose {@code VirtualThreadPool} is capped
 * at {@code server.jetty.threads.max} (200 by default) on Boot 3.5.11+ and 4.
 * <p>
 * Jetty closes a connection once it has been idle for the connector's idle timeout
 * ({@code server.jetty.connection-idle-timeout}, 30 s by default), also when its request
 * waits unread in the executor's queue: so requests wait at most about that long there
 * ({@link ConnectionIntake#closesIdleConnectionsAfter}). A request Jetty has read (read
 * ahead of its turn) is not closed while it waits.
 */
public final class JettyThreadModel {

	private final Executor executor;

	private final int acceptQueueSize;

	private final ConnectionAcceptors acceptors;

	private final ConnectionIntake intake;

	private final ProbeLane probes;

	private JettyThreadModel(Executor executor, ConnectionIntake intake, ProbeLane probes) {
		this.executor = executor;
		this.acceptQueueSize = intake.acceptBacklog();
		this.acceptors = intake.acceptors();
		this.intake = intake;
		this.probes = probes;
	}

	/**
	 * The adapter for the starter's connection intake: its backlog, its acceptors, and
	 * the bound of the executor's queue by the connectors' idle timeout.
	 * @param executor the executor for request handling
	 * @param intake the connection intake
	 * @param probes the probes' lane, or {@code null} to run probes on the executor too
	 * @return the adapter
	 */
	public static JettyThreadModel of(Executor executor, ConnectionIntake intake, ProbeLane probes) {
		return new JettyThreadModel(executor, intake, probes);
	}

	/**
	 * A new thread pool for Jetty's I/O that hands blocking work to the executor: platform
	 * threads when the executor runs the platform model now, or when the connections tell
	 * health probes for their lane (a virtual acceptor or selector waits for a carrier like
	 * any virtual thread, and the probe with it: behind a burst of 2000 requests, seconds);
	 * otherwise virtual threads.
	 * @return the thread pool for the server factory
	 */
	public ThreadPool threadPool() {
		if (this.probes != null
				|| (this.executor instanceof ThreadModelExecutor requests && requests.getModel() == ThreadModel.PLATFORM)) {
			return platformIoThreads(this.executor);
		}
		return new VirtualIoThreads(this.executor);
	}

	private static ThreadPool platformIoThreads(Executor requests) {
		QueuedThreadPool pool = new QueuedThreadPool();
		pool.setName("jetty-io");
		pool.setReservedThreads(0); // no reserved thread: Jetty's TryExecutor refuses
		pool.setVirtualThreadsExecutor(requests);
		return pool;
	}

	/**
	 * Jetty's own threads (acceptors, selectors), virtual, with the request executor as
	 * the executor for blocking tasks.
	 */
	static final class VirtualIoThreads extends VirtualThreadPool {

		private final Executor requests;

		VirtualIoThreads(Executor requests) {
			this.requests = requests;
			setName("jetty-io");
		}

		@Override
		public Executor getVirtualThreadsExecutor() {
			return this.requests;
		}

		/**
		 * Refuses, so that Jetty hands a blocking task to the request executor instead of
		 * running it on the selecting thread.
		 */
		@Override
		public boolean tryExecute(Runnable task) {
			return false;
		}

	}

	/**
	 * Applies the accept backlog to the server's connectors, and bounds the executor's
	 * queue by their idle timeout (as set by then: Spring Boot's server customizers run
	 * before this one).
	 * @param server the server
	 */
	public void apply(Server server) {
		for (Connector connector : server.getConnectors()) {
			if (connector instanceof ServerConnector serverConnector) {
				serverConnector.setAcceptQueueSize(this.acceptQueueSize);
				this.acceptors.add(() -> serverConnector.setAccepting(false));
				if (this.probes != null) {
					serverConnector.setConnectionFactories(serverConnector.getConnectionFactories()
						.stream()
						.map(this::routingProbes)
						.toList());
				}
			}
			if (connector.getIdleTimeout() > 0) { // 0 or less: no idle timeout
				this.intake.closesIdleConnectionsAfter(Duration.ofMillis(connector.getIdleTimeout()), this.executor);
			}
		}
	}

	/** Jetty's own HTTP/1.1 factory, exactly (not a subclass an application chose), replaced. */
	private ConnectionFactory routingProbes(ConnectionFactory factory) {
		return (factory.getClass() == HttpConnectionFactory.class)
				? new JettyProbeRouting((HttpConnectionFactory) factory, this.executor, this.probes) : factory;
	}

	/**
	 * What a native image needs for {@link JettyProbeRouting}: Jetty 12.1's chunk length
	 * setting, which it copies reflectively (Jetty 12.0 has none).
	 */
	public static class Hints implements RuntimeHintsRegistrar {

		@Override
		public void registerHints(RuntimeHints hints, ClassLoader classLoader) {
			TypeReference intType = TypeReference.of(int.class);
			hints.reflection()
				.registerType(HttpConnectionFactory.class,
						(type) -> type.withMethod("getTransferEncodingChunkMaxLength", List.of(), ExecutableMode.INVOKE)
							.withMethod("setTransferEncodingChunkMaxLength", List.of(intType), ExecutableMode.INVOKE));
			hints.reflection()
				.registerType(HttpConnection.class, (type) -> type.withMethod("setTransferEncodingChunkMaxLength",
						List.of(intType), ExecutableMode.INVOKE));
		}

	}

}
