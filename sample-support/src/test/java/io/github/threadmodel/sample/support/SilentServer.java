package io.github.threadmodel.sample.support;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP server that accepts connections and reads what it is sent, but never answers: a back end that hangs.
 */
public final class SilentServer implements AutoCloseable {

	private final ServerSocket server;

	private final List<Socket> clients = new CopyOnWriteArrayList<>();

	public SilentServer() throws IOException {
		this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		Thread.ofPlatform().daemon().name("silent-server").start(this::accept);
	}

	public int port() {
		return this.server.getLocalPort();
	}

	private void accept() {
		while (!this.server.isClosed()) {
			try {
				Socket client = this.server.accept();
				this.clients.add(client);
				Thread.ofPlatform().daemon().start(() -> drain(client));
			}
			catch (IOException ex) {
				return;
			}
		}
	}

	private static void drain(Socket client) {
		try (InputStream in = client.getInputStream()) {
			in.transferTo(OutputStreamSink.INSTANCE);
		}
		catch (IOException ex) {
			// closed
		}
	}

	@Override
	public void close() throws IOException {
		this.server.close();
		for (Socket client : this.clients) {
			client.close();
		}
	}

	private static final class OutputStreamSink extends java.io.OutputStream {

		static final OutputStreamSink INSTANCE = new OutputStreamSink();

		@Override
		public void write(int b) {
		}

		@Override
		public void write(byte[] b, int off, int len) {
		}

	}

}
