package io.github.threadmodel.servers;

import java.util.concurrent.Executor;

import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * Makes Jetty 12 run request handling on the given executor while its acceptors and
 * selectors stay on a pool of platform threads.
 * <p>
 * Jetty hands every task that may block (parsing a request and calling the servlet) to
 * its thread pool's "virtual threads executor" when one is set; the executor given here
 * takes that place whatever its model. The pool keeps no reserved threads, because with
 * them Jetty would run a blocking task on the selecting platform thread itself
 * (execute-produce-consume) instead of handing it over. The pool replaces the one Spring
 * Boot sets for {@code spring.threads.virtual.enabled}, whose {@code VirtualThreadPool}
 * is capped at {@code server.jetty.threads.max} (200 by default) on Boot 3.5.11+ and 4.
 */
public final class JettyThreadModel {

	private final Executor executor;

	private final int acceptQueueSize;

	private final ConnectionAcceptors acceptors;

	/**
	 * Creates the adapter.
	 * @param executor the executor for request handling
	 * @param acceptQueueSize the accept backlog of each connector
	 * @param acceptors where to register how each connector stops taking new connections
	 */
	public JettyThreadModel(Executor executor, int acceptQueueSize, ConnectionAcceptors acceptors) {
		this.executor = executor;
		this.acceptQueueSize = acceptQueueSize;
		this.acceptors = acceptors;
	}

	/**
	 * A new thread pool for Jetty's I/O that hands blocking work to the executor.
	 * @return the thread pool for the server factory
	 */
	public QueuedThreadPool threadPool() {
		QueuedThreadPool ioThreads = new QueuedThreadPool();
		ioThreads.setName("jetty-io");
		ioThreads.setReservedThreads(0);
		ioThreads.setVirtualThreadsExecutor(this.executor);
		return ioThreads;
	}

	/**
	 * Applies the accept backlog to the server's connectors.
	 * @param server the server
	 */
	public void apply(Server server) {
		for (Connector connector : server.getConnectors()) {
			if (connector instanceof ServerConnector serverConnector) {
				serverConnector.setAcceptQueueSize(this.acceptQueueSize);
				this.acceptors.add(() -> serverConnector.setAccepting(false));
			}
		}
	}

}
