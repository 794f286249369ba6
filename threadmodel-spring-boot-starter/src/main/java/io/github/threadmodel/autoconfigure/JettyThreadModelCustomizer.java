package io.github.threadmodel.autoconfigure;

import java.util.concurrent.Executor;

import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

import org.springframework.boot.web.embedded.jetty.ConfigurableJettyWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.core.Ordered;

/**
 * Makes Jetty 12 run request handling on the given executor while its acceptors and
 * selectors stay on a pool of platform threads.
 * <p>
 * Jetty hands every task that may block (parsing a request and calling the servlet) to
 * its thread pool's "virtual threads executor" when one is set; the executor given here
 * takes that place whatever its model. The pool keeps no reserved threads, because with
 * them Jetty would run a blocking task on the selecting platform thread itself
 * (execute-produce-consume) instead of handing it over.
 */
public class JettyThreadModelCustomizer
		implements WebServerFactoryCustomizer<ConfigurableJettyWebServerFactory>, Ordered {

	private final Executor executor;

	private final int acceptQueueSize;

	/**
	 * Creates a customizer.
	 * @param executor the executor for request handling
	 * @param acceptQueueSize the accept backlog of each connector
	 */
	public JettyThreadModelCustomizer(Executor executor, int acceptQueueSize) {
		this.executor = executor;
		this.acceptQueueSize = acceptQueueSize;
	}

	@Override
	public void customize(ConfigurableJettyWebServerFactory factory) {
		QueuedThreadPool ioThreads = new QueuedThreadPool();
		ioThreads.setName("jetty-io");
		ioThreads.setReservedThreads(0);
		ioThreads.setVirtualThreadsExecutor(this.executor);
		factory.setThreadPool(ioThreads);
		factory.addServerCustomizers((server) -> {
			for (Connector connector : server.getConnectors()) {
				if (connector instanceof ServerConnector serverConnector) {
					serverConnector.setAcceptQueueSize(this.acceptQueueSize);
				}
			}
		});
	}

	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

}
