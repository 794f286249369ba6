package io.github.threadmodel.sample.support;

import java.sql.SQLException;

import org.h2.tools.Server;

/**
 * An in-memory H2 database served over TCP from this JVM, on a port of its own, that a test can stop (the
 * database is gone for the application) and start again (the same data is back).
 */
public final class H2TcpServer {

	private final int port = Ports.free();

	private final String name;

	private Server server;

	public H2TcpServer(String name) {
		this.name = name;
	}

	/** The part of an H2 URL after {@code jdbc:h2:}: {@code tcp://127.0.0.1:<port>/mem:<name>;DB_CLOSE_DELAY=-1}. */
	public String url() {
		return "tcp://127.0.0.1:" + this.port + "/mem:" + this.name + ";DB_CLOSE_DELAY=-1";
	}

	public synchronized void start() throws SQLException {
		this.server = Server.createTcpServer("-tcpPort", String.valueOf(this.port), "-ifNotExists").start();
	}

	public synchronized void stop() {
		if (this.server != null) {
			this.server.stop();
			this.server = null;
		}
	}

}
