package io.github.threadmodel.executor;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The accept backlog the starter gives each web server. Virtual threads remove the
 * thread limit, so a small backlog becomes the limit instead: connections that overflow
 * it are dropped by the OS and retried by clients a second later.
 *
 * @param configured the backlog asked for
 * @param somaxconn the OS cap on any backlog ({@code net.core.somaxconn}), or {@code null}
 * when the OS does not say
 */
public record ConnectionIntake(int configured, Integer somaxconn) {

	private static final Path SOMAXCONN = Path.of("/proc/sys/net/core/somaxconn");

	/**
	 * The intake for a configured backlog on this machine.
	 * @param configured the backlog asked for
	 * @return the intake, with the OS cap read from {@code /proc} where there is one
	 */
	public static ConnectionIntake of(int configured) {
		return new ConnectionIntake(configured, readSomaxconn());
	}

	/**
	 * The backlog applied: the configured one, capped by the OS.
	 * @return the accept backlog
	 */
	public int acceptBacklog() {
		return (this.somaxconn != null) ? Math.min(this.configured, this.somaxconn) : this.configured;
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
