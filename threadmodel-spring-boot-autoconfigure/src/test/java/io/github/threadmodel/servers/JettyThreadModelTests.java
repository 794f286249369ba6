package io.github.threadmodel.servers;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.VirtualThreads;
import org.eclipse.jetty.util.component.LifeCycle;
import org.eclipse.jetty.util.thread.ThreadPool;
import org.eclipse.jetty.util.thread.TryExecutor;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class JettyThreadModelTests {

	private final Executor executor = Runnable::run;

	@Test
	void threadPoolHandsBlockingWorkToTheExecutorAndNeverRunsItOnTheSelectingThread() {
		ThreadPool pool = new JettyThreadModel(this.executor, 100, new ConnectionAcceptors()).threadPool();
		assertThat(VirtualThreads.getVirtualThreadsExecutor(pool)).isSameAs(this.executor);
		assertThat(TryExecutor.asTryExecutor(pool).tryExecute(() -> {
		})).isFalse();
	}

	@Test
	void jettysOwnThreadsAreVirtualAndNamed() throws Exception {
		ThreadPool pool = new JettyThreadModel(this.executor, 100, new ConnectionAcceptors()).threadPool();
		LifeCycle.start(pool);
		try {
			CompletableFuture<Thread> thread = new CompletableFuture<>();
			pool.execute(() -> thread.complete(Thread.currentThread()));
			assertThat(thread.get(10, TimeUnit.SECONDS)).satisfies((ioThread) -> {
				assertThat(ioThread.isVirtual()).isTrue();
				assertThat(ioThread.getName()).startsWith("jetty-io");
			});
		}
		finally {
			LifeCycle.stop(pool);
		}
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
