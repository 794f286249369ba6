package io.github.threadmodel.internal.servers;

import java.time.Duration;
import java.util.concurrent.Executor;

import org.eclipse.jetty.util.VirtualThreads;
import org.junit.jupiter.api.Test;

import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

class ConnectionIntakeTests {

	private final Executor executor = Runnable::run;

	private final MockEnvironment environment = new MockEnvironment();

	private final ConnectionIntake intake = new ConnectionIntake(8192, 4096, this.environment);

	@Test
	void backlogIsTheStartersCappedByTheOperatingSystem() {
		assertThat(this.intake.acceptBacklogUnlessSet("server.tomcat.accept-count")).isEqualTo(4096);
	}

	@Test
	void backlogIsLeftToTheServerWhenTheUserSetItsProperty() {
		this.environment.setProperty("server.undertow.options.socket.backlog", "50");
		assertThat(this.intake.acceptBacklogUnlessSet("server.undertow.options.socket.BACKLOG",
				"server.undertow.options.socket.backlog"))
			.isNull();
	}

	@Test
	void requestsWaitAtMostTheIdleTimeoutLessTwoSecondsOrAQuarterOfIt() {
		assertThat(ConnectionIntake.maxIdleWait(Duration.ofSeconds(30))).isEqualTo(Duration.ofSeconds(28));
		assertThat(ConnectionIntake.maxIdleWait(Duration.ofSeconds(2))).isEqualTo(Duration.ofMillis(1500));
	}

	@Test
	void noIdleTimeoutUntilAServerSaysSo() {
		assertThat(this.intake.idleTimeout()).isNull();
		this.intake.closesIdleConnectionsAfter(Duration.ofSeconds(10), this.executor);
		this.intake.closesIdleConnectionsAfter(Duration.ofSeconds(30), this.executor);
		assertThat(this.intake.idleTimeout()).isEqualTo(Duration.ofSeconds(10));
	}

	@Test
	void adaptersRunRequestsOnTheRequestExecutor() {
		assertThat(VirtualThreads.getVirtualThreadsExecutor(JettyThreadModel.of(this.executor, this.intake, null).threadPool()))
			.isSameAs(this.executor);
	}

}
