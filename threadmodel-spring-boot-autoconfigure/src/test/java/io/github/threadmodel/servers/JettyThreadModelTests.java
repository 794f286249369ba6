package io.github.threadmodel.servers;

import java.util.concurrent.Executor;

import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class JettyThreadModelTests {

	private final Executor executor = Runnable::run;

	@Test
	void threadPoolHandsBlockingWorkToTheExecutorAndReservesNoThreads() {
		QueuedThreadPool pool = new JettyThreadModel(this.executor, 100, new ConnectionAcceptors()).threadPool();
		assertThat(pool.getVirtualThreadsExecutor()).isSameAs(this.executor);
		assertThat(pool.getReservedThreads()).isZero();
		assertThat(pool.getName()).isEqualTo("jetty-io");
	}

	@Test
	void everyConnectorGetsTheBacklog() {
		Server server = new Server();
		ServerConnector first = new ServerConnector(server);
		ServerConnector second = new ServerConnector(server);
		server.addConnector(first);
		server.addConnector(second);
		new JettyThreadModel(this.executor, 2048, new ConnectionAcceptors()).apply(server);
		assertThat(first.getAcceptQueueSize()).isEqualTo(2048);
		assertThat(second.getAcceptQueueSize()).isEqualTo(2048);
	}

	@Test
	void everyConnectorStopsAcceptingThroughTheAcceptors() {
		Server server = new Server();
		ServerConnector first = new ServerConnector(server);
		ServerConnector second = new ServerConnector(server);
		server.addConnector(first);
		server.addConnector(second);
		ConnectionAcceptors acceptors = new ConnectionAcceptors();
		new JettyThreadModel(this.executor, 2048, acceptors).apply(server);
		assertThat(first.isAccepting()).isTrue();
		acceptors.stopAccepting();
		assertThat(first.isAccepting()).isFalse();
		assertThat(second.isAccepting()).isFalse();
	}

}
