package io.github.threadmodel.sample.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.function.Supplier;

import static org.awaitility.Awaitility.await;

/** Ports for the servers a test starts, and waiting for the application to answer again. */
public final class Ports {

	private Ports() {
	}

	/** A port that nothing listens on right now. */
	public static int free() {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			socket.setReuseAddress(true);
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** Asks for {@code reply} every 200 ms until its status is {@code status}, for at most {@code limit}. */
	public static Http.Reply awaitStatus(int status, Duration limit, Supplier<Http.Reply> reply) {
		return await().atMost(limit)
			.pollDelay(Duration.ZERO)
			.pollInterval(Duration.ofMillis(200))
			.until(reply::get, (last) -> last.status() == status);
	}

}
