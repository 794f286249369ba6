package io.github.threadmodel.internal.servers;

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
	void adaptersRunRequestsOnTheRequestExecutor() {
		assertThat(VirtualThreads.getVirtualThreadsExecutor(JettyThreadModel.of(this.executor, this.intake).threadPool()))
			.isSameAs(this.executor);
	}

}
