package io.github.threadmodel.internal.servers;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.springframework.core.env.Environment;

/**
 * How each web server takes in connections: the accept backlog the starter gives it, and
 * how its connectors stop taking new ones. Virtual threads remove the thread limit, so a
 * small backlog becomes the limit instead: connections that overflow it are dropped by the
 * OS and retried by clients a second later.
 */
public final class ConnectionIntake {

	private static final Path SOMAXCONN = Path.of("/proc/sys/net/core/somaxconn");

	private final int configured;

	private final Integer somaxconn;

	private final Environment environment;

	private final ConnectionAcceptors acceptors = new ConnectionAcceptors();

	/**
	 * The intake for a configured backlog on this machine, with the OS cap read from
	 * {@code /proc} where there is one.
	 * @param configured the backlog asked for
	 * @param environment the environment, to leave alone what the user set on a server
	 */
	public ConnectionIntake(int configured, Environment environment) {
		this(configured, readSomaxconn(), environment);
	}

	ConnectionIntake(int configured, Integer somaxconn, Environment environment) {
		this.configured = configured;
		this.somaxconn = somaxconn;
		this.environment = environment;
	}

	/**
	 * The backlog asked for.
	 * @return the configured backlog
	 */
	public int configured() {
		return this.configured;
	}

	/**
	 * The OS cap on any backlog ({@code net.core.somaxconn}).
	 * @return the cap, or {@code null} when the OS does not say
	 */
	public Integer somaxconn() {
		return this.somaxconn;
	}

	/**
	 * The backlog applied: the configured one, capped by the OS.
	 * @return the accept backlog
	 */
	public int acceptBacklog() {
		return (this.somaxconn != null) ? Math.min(this.configured, this.somaxconn) : this.configured;
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
		return acceptBacklog();
	}

	/**
	 * How the connectors of the servers adapted so far stop taking new connections.
	 * @return the connectors' acceptors
	 */
	ConnectionAcceptors acceptors() {
		return this.acceptors;
	}

	private static Integer readSomaxconn() {
		try {
			// Not Files.readString: /proc files report a size of 0, and it reads only a few bytes.
			return Integer.valueOf(Files.readAllLines(SOMAXCONN).get(0).trim());
		}
		catch (IOException | RuntimeException ex) {
			return null;
		}
	}

}
