package io.github.threadmodel.internal.servers;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Executor;

import io.github.threadmodel.executor.ThreadModelExecutor;

import org.springframework.core.env.Environment;

/**
 * How each web server takes in connections: the accept backlog the starter gives it, how
 * its connectors stop taking new ones, and how long its requests may wait in the request
 * executor's queue before the server would close their connection as idle. Virtual
 * threads remove the thread limit, so a small backlog becomes the limit instead:
 * connections that overflow it are dropped by the OS and retried by clients a second
 * later.
 */
public final class ConnectionIntake {

	private static final Path SOMAXCONN = Path.of("/proc/sys/net/core/somaxconn");

	/**
	 * The most a request's wait stops short of the idle timeout: time for the refused
	 * request to be read and answered, and for the server's idle clock, which may have
	 * started a little before the request reached the executor (at the accept, or at its
	 * last read).
	 */
	private static final Duration IDLE_MARGIN = Duration.ofSeconds(2);

	private final int configured;

	private final Integer somaxconn;

	private final Environment environment;

	private final ConnectionAcceptors acceptors = new ConnectionAcceptors();

	/** The shortest idle timeout that closes a connection whose request waits, or {@code null}. */
	private volatile Duration idleTimeout;

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

	/**
	 * Bounds the wait of every request in the request executor's queue by a connection
	 * idle timeout of the server, which closes a connection whose request waits there
	 * unread as idle, without an answer: the request executor refuses such a request once
	 * it has waited the {@link #maxIdleWait longest wait} and it is answered 503 instead.
	 * With several connectors (or calls) the shortest timeout counts.
	 * @param idleTimeout the server's connection idle timeout
	 * @param requests the request executor
	 */
	synchronized void closesIdleConnectionsAfter(Duration idleTimeout, Executor requests) {
		if (this.idleTimeout == null || idleTimeout.compareTo(this.idleTimeout) < 0) {
			this.idleTimeout = idleTimeout;
		}
		if (requests instanceof ThreadModelExecutor executor) {
			executor.setMaxIdleWait(maxIdleWait(this.idleTimeout));
		}
	}

	/**
	 * The shortest connection idle timeout of the server that closes a connection whose
	 * request waits in the request executor's queue.
	 * @return the idle timeout, or {@code null} when the server has none that does
	 */
	public Duration idleTimeout() {
		return this.idleTimeout;
	}

	/**
	 * The longest a request waits in the request executor's queue under an idle timeout:
	 * the timeout less a quarter of it, or less two seconds when that is shorter.
	 * @param idleTimeout the server's connection idle timeout
	 * @return the longest wait
	 */
	public static Duration maxIdleWait(Duration idleTimeout) {
		Duration quarter = idleTimeout.dividedBy(4);
		return idleTimeout.minus((quarter.compareTo(IDLE_MARGIN) < 0) ? quarter : IDLE_MARGIN);
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
