package io.github.threadmodel.servers;

import java.util.concurrent.Executor;

import io.github.threadmodel.executor.ConnectionIntake;

import org.springframework.core.env.Environment;

/**
 * Makes each server's adapter from the request executor and the connection settings,
 * once for both Boot lines; a starter's customizers only apply them.
 */
public final class ThreadModelServers {

	private final Executor requests;

	private final ConnectionIntake intake;

	private final Environment environment;

	private final ConnectionAcceptors acceptors = new ConnectionAcceptors();

	/**
	 * Creates the adapters' factory.
	 * @param requests the request executor
	 * @param intake the connection settings
	 * @param environment the environment, to leave alone what the user set on a server
	 */
	public ThreadModelServers(Executor requests, ConnectionIntake intake, Environment environment) {
		this.requests = requests;
		this.intake = intake;
		this.environment = environment;
	}

	/**
	 * The executor that runs request work.
	 * @return the request executor
	 */
	public Executor requests() {
		return this.requests;
	}

	/**
	 * The starter's accept backlog, unless the user set the server's own property for it:
	 * a user's value for the server always wins.
	 * @param serverProperties the server's own properties for the backlog
	 * @return the backlog, or {@code null} to leave the server's
	 */
	public Integer acceptBacklogUnlessSet(String... serverProperties) {
		for (String property : serverProperties) {
			if (this.environment.containsProperty(property)) {
				return null;
			}
		}
		return this.intake.acceptBacklog();
	}

	/**
	 * How the connectors of the servers adapted so far stop taking new connections.
	 * @return the connectors' acceptors
	 */
	public ConnectionAcceptors acceptors() {
		return this.acceptors;
	}

	/**
	 * The adapter for Tomcat.
	 * @return the adapter
	 */
	public TomcatThreadModel tomcat() {
		return new TomcatThreadModel(this.requests, acceptBacklogUnlessSet("server.tomcat.accept-count"),
				this.acceptors);
	}

	/**
	 * The adapter for Jetty.
	 * @return the adapter
	 */
	public JettyThreadModel jetty() {
		return new JettyThreadModel(this.requests, this.intake.acceptBacklog(), this.acceptors);
	}

	/**
	 * The adapter for Reactor Netty.
	 * @return the adapter
	 */
	public NettyThreadModel netty() {
		return new NettyThreadModel(this.intake.acceptBacklog());
	}

}
