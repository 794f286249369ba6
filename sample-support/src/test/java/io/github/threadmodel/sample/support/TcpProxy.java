package io.github.threadmodel.sample.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Forwards a local port to a real server. {@link #stop()} closes the port and every connection through it, as if
 * the server were gone; {@link #start()} opens the same port again.
 */
public final class TcpProxy implements AutoCloseable {

	private final int port;

	private final String targetHost;

	private final int targetPort;

	private final List<Socket> sockets = new CopyOnWriteArrayList<>();

	private ServerSocket server;

	public TcpProxy(int port, String targetHost, int targetPort) {
		this.port = port;
		this.targetHost = targetHost;
		this.targetPort = targetPort;
	}

	public int port() {
		return this.port;
	}

	public synchronized TcpProxy start() throws IOException {
		ServerSocket socket = new ServerSocket();
		socket.setReuseAddress(true);
		socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), this.port), 100);
		this.server = socket;
		Thread.ofPlatform().daemon().name("tcp-proxy-" + this.port).start(() -> accept(socket));
		return this;
	}

	private void accept(ServerSocket socket) {
		while (!socket.isClosed()) {
			try {
				Socket client = socket.accept();
				Socket upstream;
				try {
					upstream = new Socket(this.targetHost, this.targetPort);
				}
				catch (IOException ex) {
					client.close();
					continue;
				}
				this.sockets.add(client);
				this.sockets.add(upstream);
				pump(client, upstream);
				pump(upstream, client);
			}
			catch (IOException ex) {
				return;
			}
		}
	}

	private void pump(Socket from, Socket to) {
		Thread.ofPlatform().daemon().start(() -> {
			try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
				byte[] buffer = new byte[16 * 1024];
				int n;
				while ((n = in.read(buffer)) >= 0) {
					out.write(buffer, 0, n);
					out.flush();
				}
			}
			catch (IOException ex) {
				// one side closed
			}
			finally {
				closeQuietly(from);
				closeQuietly(to);
			}
		});
	}

	public synchronized void stop() {
		if (this.server != null) {
			closeQuietly(this.server);
			this.server = null;
		}
		for (Socket socket : this.sockets) {
			closeQuietly(socket);
		}
		this.sockets.clear();
	}

	@Override
	public void close() {
		stop();
	}

	private static void closeQuietly(AutoCloseable closeable) {
		try {
			closeable.close();
		}
		catch (Exception ex) {
			// already closed
		}
	}

}
