package io.github.threadmodel.internal.servers;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

import io.github.threadmodel.executor.ExecutorSettings.UnlimitedAdmission;
import io.github.threadmodel.executor.ExecutorSettings;
import io.github.threadmodel.executor.ThreadModel;
import io.github.threadmodel.executor.ThreadModelExecutor;
import io.github.threadmodel.internal.overload.ProbeLane;
import io.github.threadmodel.internal.overload.ProbePaths;
import org.eclipse.jetty.io.ByteArrayEndPoint;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.internal.HttpConnection;
import org.eclipse.jetty.util.VirtualThreads;
import org.eclipse.jetty.util.component.LifeCycle;
import org.eclipse.jetty.util.thread.ThreadPool;
import org.eclipse.jetty.util.thread.TryExecutor;
import org.junit.jupiter.api.Test;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

class JettyThreadModelTests {

	private final Executor executor = Runnable::run;

	@Test
	void threadPoolHandsBlockingWorkToTheExecutorAndNeverRunsItOnTheSelectingThread() {
		assertHandsBlockingWorkToTheExecutor(this.executor);
	}

	@Test
	void jettysOwnThreadsAreVirtualAndNamed() throws Exception {
		assertThat(ioThread(this.executor)).satisfies((ioThread) -> {
			assertThat(ioThread.isVirtual()).isTrue();
			assertThat(ioThread.getName()).startsWith("jetty-io");
		});
	}

	@Test
	void jettysOwnThreadsAreVirtualWhenTheServerStartsOnVirtualThreads() throws Exception {
		try (ThreadModelExecutor requests = new ThreadModelExecutor("request-", settings(ThreadModel.VIRTUAL))) {
			assertThat(ioThread(requests).isVirtual()).isTrue();
		}
	}

	@Test
	void jettysOwnThreadsArePlatformThreadsWhenTheServerStartsOnThePlatformModel() throws Exception {
		try (ThreadModelExecutor requests = new ThreadModelExecutor("request-", settings(ThreadModel.PLATFORM))) {
			assertHandsBlockingWorkToTheExecutor(requests);
			assertThat(ioThread(requests)).satisfies((ioThread) -> {
				assertThat(ioThread.isVirtual()).isFalse();
				assertThat(ioThread.getName()).startsWith("jetty-io");
			});
		}
	}

	@Test
	void everyConnectorGetsTheBacklog() {
		Server server = new Server();
		ServerConnector first = new ServerConnector(server);
		ServerConnector second = new ServerConnector(server);
		server.addConnector(first);
		server.addConnector(second);
		JettyThreadModel.of(this.executor, intake(2048), null).apply(server);
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
		ConnectionIntake intake = intake(2048);
		JettyThreadModel.of(this.executor, intake, null).apply(server);
		assertThat(first.isAccepting()).isTrue();
		intake.acceptors().stopAccepting();
		assertThat(first.isAccepting()).isFalse();
		assertThat(second.isAccepting()).isFalse();
	}

	@Test
	void theShortestIdleTimeoutOfTheConnectorsBoundsTheQueue() {
		Server server = new Server();
		ServerConnector first = new ServerConnector(server);
		first.setIdleTimeout(20_000);
		ServerConnector second = new ServerConnector(server);
		second.setIdleTimeout(8_000);
		ServerConnector none = new ServerConnector(server);
		none.setIdleTimeout(0);
		server.addConnector(first);
		server.addConnector(second);
		server.addConnector(none);
		ConnectionIntake intake = intake(100);
		try (ThreadModelExecutor requests = new ThreadModelExecutor("request-", settings(ThreadModel.VIRTUAL))) {
			JettyThreadModel.of(requests, intake, null).apply(server);
			assertThat(intake.idleTimeout()).isEqualTo(Duration.ofSeconds(8));
			assertThat(requests.getMaxIdleWait()).isEqualTo(Duration.ofSeconds(6));
		}
	}

	@Test
	void jettysOwnThreadsArePlatformThreadsWhenProbesHaveTheirLane() throws Exception {
		try (ThreadModelExecutor requests = new ThreadModelExecutor("request-", settings(ThreadModel.VIRTUAL));
				ProbeLane probes = lane()) {
			ThreadPool pool = JettyThreadModel.of(requests, intake(100), probes).threadPool();
			assertThat(VirtualThreads.getVirtualThreadsExecutor(pool)).isSameAs(requests);
			assertThat(ioThread(pool).isVirtual()).isFalse();
		}
	}

	@Test
	void jettysOwnHttp11FactoryIsReplacedByOneThatRoutesProbesWithItsSettings() {
		Server server = new Server();
		HttpConnectionFactory jettys = new HttpConnectionFactory();
		jettys.setInputBufferSize(1234);
		jettys.setUseInputDirectByteBuffers(false);
		ServerConnector connector = new ServerConnector(server, jettys);
		server.addConnector(connector);
		try (ProbeLane probes = lane()) {
			JettyThreadModel.of(this.executor, intake(100), probes).apply(server);
		}
		assertThat(connector.getConnectionFactories()).singleElement()
			.isInstanceOfSatisfying(JettyProbeRouting.class, (routing) -> {
				assertThat(routing.getHttpConfiguration()).isSameAs(jettys.getHttpConfiguration());
				assertThat(routing.getInputBufferSize()).isEqualTo(1234);
				assertThat(routing.isUseInputDirectByteBuffers()).isFalse();
				assertThat(routing.getProtocol()).isEqualTo(jettys.getProtocol());
			});
		assertThat(connector.getDefaultConnectionFactory()).isInstanceOf(JettyProbeRouting.class);
	}

	@Test
	void anApplicationsOwnHttp11FactoryIsKept() {
		Server server = new Server();
		HttpConnectionFactory own = new HttpConnectionFactory() {
		};
		ServerConnector connector = new ServerConnector(server, own);
		server.addConnector(connector);
		try (ProbeLane probes = lane()) {
			JettyThreadModel.of(this.executor, intake(100), probes).apply(server);
		}
		assertThat(connector.getConnectionFactories()).containsExactly(own);
	}

	@Test
	void withoutALaneJettysOwnHttp11FactoryIsKept() {
		Server server = new Server();
		ServerConnector connector = new ServerConnector(server);
		server.addConnector(connector);
		JettyThreadModel.of(this.executor, intake(100), null).apply(server);
		assertThat(connector.getConnectionFactories()).singleElement().isExactlyInstanceOf(HttpConnectionFactory.class);
	}

	@Test
	void aConnectionWokenWithNothingToReadWaitsOnTheSelectingThreadNotInTheRequestQueue() {
		List<Runnable> handedToRequests = new CopyOnWriteArrayList<>();
		ByteArrayEndPoint endPoint = new ByteArrayEndPoint();
		try (ProbeLane probes = lane()) {
			Server server = new Server();
			ServerConnector connector = new ServerConnector(server);
			Connection connection = new JettyProbeRouting(new HttpConnectionFactory(), handedToRequests::add, probes)
				.newConnection(connector, endPoint);
			endPoint.setConnection(connection);
			connection.onOpen();
			assertThat(endPoint.isFillInterested()).isTrue();
			endPoint.getFillInterest().fillable(); // woken, but no byte has arrived
			assertThat(handedToRequests).isEmpty();
			assertThat(endPoint.isFillInterested()).isTrue();
			endPoint.addInput("GET /orders HTTP/1.1\r\nHost: localhost\r\n\r\n");
			assertThat(handedToRequests).hasSize(1);
		}
	}

	@Test
	void nativeImageMayReachTheChunkLengthTheProbeRoutingCopies() {
		RuntimeHints hints = new RuntimeHints();
		new JettyThreadModel.Hints().registerHints(hints, getClass().getClassLoader());
		// read from the hints themselves: the predicate for an invoked method differs between the Spring lines
		assertThat(hints.reflection().getTypeHint(HttpConnectionFactory.class).methods())
			.extracting((method) -> method.getName() + " " + method.getMode())
			.contains("getTransferEncodingChunkMaxLength INVOKE", "setTransferEncodingChunkMaxLength INVOKE");
		assertThat(hints.reflection().getTypeHint(HttpConnection.class).methods())
			.extracting((method) -> method.getName() + " " + method.getMode())
			.contains("setTransferEncodingChunkMaxLength INVOKE");
	}

	private void assertHandsBlockingWorkToTheExecutor(Executor requests) {
		ThreadPool pool = JettyThreadModel.of(requests, intake(100), null).threadPool();
		assertThat(VirtualThreads.getVirtualThreadsExecutor(pool)).isSameAs(requests);
		assertThat(TryExecutor.asTryExecutor(pool).tryExecute(() -> {
		})).isFalse();
	}

	private Thread ioThread(Executor requests) throws Exception {
		return ioThread(JettyThreadModel.of(requests, intake(100), null).threadPool());
	}

	private Thread ioThread(ThreadPool pool) throws Exception {
		LifeCycle.start(pool);
		try {
			CompletableFuture<Thread> thread = new CompletableFuture<>();
			pool.execute(() -> thread.complete(Thread.currentThread()));
			return thread.get(10, TimeUnit.SECONDS);
		}
		finally {
			LifeCycle.stop(pool);
		}
	}

	private static ProbeLane lane() {
		return new ProbeLane(new ProbePaths(Set.of("/actuator/health")), "");
	}

	private static ConnectionIntake intake(int backlog) {
		return new ConnectionIntake(backlog, null, new MockEnvironment());
	}

	private static ExecutorSettings settings(ThreadModel model) {
		return new ExecutorSettings(model, new ExecutorSettings.PlatformPool(4, 0, null, Duration.ofSeconds(60)),
				UnlimitedAdmission.INSTANCE);
	}

}
