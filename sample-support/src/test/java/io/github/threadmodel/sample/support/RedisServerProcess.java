package io.github.threadmodel.sample.support;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.awaitility.core.ConditionTimeoutException;

import static org.awaitility.Awaitility.await;

/**
 * A real redis-server (the binary that .ci/services.sh installs) on a port of its own, without persistence, that
 * a test can stop and start again.
 */
public final class RedisServerProcess implements AutoCloseable {

	private final int port;

	private Process process;

	public RedisServerProcess(int port) {
		this.port = port;
	}

	public int port() {
		return this.port;
	}

	public synchronized RedisServerProcess start() throws IOException, InterruptedException {
		this.process = new ProcessBuilder(executable(), "--port", String.valueOf(this.port), "--bind", "127.0.0.1",
				"--save", "", "--appendonly", "no", "--daemonize", "no")
			.redirectErrorStream(true)
			.redirectOutput(ProcessBuilder.Redirect.DISCARD)
			.start();
		boolean started;
		try {
			await().atMost(Duration.ofSeconds(15))
				.pollDelay(Duration.ZERO)
				.pollInterval(Duration.ofMillis(50))
				.until(() -> answersPing() || !this.process.isAlive());
			started = this.process.isAlive();
		}
		catch (ConditionTimeoutException ex) {
			started = false;
		}
		if (!started) {
			stop();
			throw new IllegalStateException("redis-server did not start on port " + this.port);
		}
		return this;
	}

	public synchronized void stop() throws InterruptedException {
		if (this.process != null) {
			this.process.destroy();
			if (!this.process.waitFor(10, TimeUnit.SECONDS)) {
				this.process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
			}
			this.process = null;
		}
	}

	@Override
	public void close() throws InterruptedException {
		stop();
	}

	private boolean answersPing() {
		try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), this.port)) {
			socket.setSoTimeout(1000);
			OutputStream out = socket.getOutputStream();
			out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
			out.flush();
			InputStream in = socket.getInputStream();
			byte[] reply = in.readNBytes(5);
			return "+PONG".equals(new String(reply, StandardCharsets.US_ASCII));
		}
		catch (IOException ex) {
			return false;
		}
	}

	static String executable() {
		String configured = System.getenv("REDIS_SERVER");
		if (configured != null && !configured.isBlank()) {
			return configured;
		}
		for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/usr/local/bin").split(File.pathSeparator)) {
			File candidate = new File(dir, "redis-server");
			if (candidate.canExecute()) {
				return candidate.getPath();
			}
		}
		File debian = new File("/usr/bin/redis-server");
		if (debian.canExecute()) {
			return debian.getPath();
		}
		throw new IllegalStateException("redis-server not found (run .ci/services.sh, or set REDIS_SERVER)");
	}

}
