package io.github.threadmodel.testapp;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.springframework.context.ConfigurableApplicationContext;

/**
 * The test application on one server in a JVM of its own, for tests that need the heap a
 * pod gives it ({@code -Xmx256m}) rather than the test JVM's. Started with the test JVM's
 * class path; its log goes to {@code target/forked-<server>.log}.
 */
public final class ForkedServer implements AutoCloseable {

	private static final String PORT_LINE = "forked server port ";

	private final Process process;

	private final int port;

	private ForkedServer(Process process, int port) {
		this.process = process;
		this.port = port;
	}

	/**
	 * Starts the server and waits until it listens.
	 * @param server the server
	 * @param jvmOptions the JVM's options, such as {@code -Xmx256m}
	 * @param properties the application's properties, {@code name=value}
	 * @return the running server
	 */
	public static ForkedServer start(TestServers server, List<String> jvmOptions, String... properties) {
		List<String> command = new ArrayList<>();
		command.add(ProcessHandle.current().info().command().orElse("java"));
		command.addAll(jvmOptions);
		command.addAll(List.of("-cp", System.getProperty("java.class.path"), ForkedServer.class.getName(),
				server.name()));
		command.addAll(List.of(properties));
		Path log = Path.of("target", "forked-" + server.id() + ".log");
		try {
			Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
			CompletableFuture<Integer> port = new CompletableFuture<>();
			Thread.ofPlatform().daemon().start(() -> copyLog(process, log, port));
			return new ForkedServer(process, port.get(90, TimeUnit.SECONDS));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (Exception ex) {
			throw new IllegalStateException("the forked server did not start: see " + log.toAbsolutePath(), ex);
		}
	}

	private static void copyLog(Process process, Path log, CompletableFuture<Integer> port) {
		try (BufferedReader reader = new BufferedReader(
				new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
				BufferedWriter out = Files.newBufferedWriter(log)) {
			for (String line = reader.readLine(); line != null; line = reader.readLine()) {
				if (line.startsWith(PORT_LINE)) {
					port.complete(Integer.valueOf(line.substring(PORT_LINE.length())));
				}
				out.write(line);
				out.newLine();
				out.flush();
			}
		}
		catch (IOException ex) {
			port.completeExceptionally(ex);
		}
		port.completeExceptionally(new IllegalStateException("the forked server ended"));
	}

	/**
	 * The server's port.
	 * @return the port of the application and its actuator
	 */
	public int port() {
		return this.port;
	}

	/**
	 * Whether the JVM still runs (an {@link OutOfMemoryError} with
	 * {@code -XX:+ExitOnOutOfMemoryError} ends it).
	 * @return whether it is alive
	 */
	public boolean isAlive() {
		return this.process.isAlive();
	}

	@Override
	public void close() throws InterruptedException {
		this.process.destroy();
		if (!this.process.waitFor(20, TimeUnit.SECONDS)) {
			this.process.destroyForcibly();
		}
	}

	/**
	 * Starts the test application on the server named by the first argument, with the
	 * others as its properties, and prints its port.
	 * @param args the server, then {@code name=value} properties
	 */
	public static void main(String[] args) {
		ConfigurableApplicationContext context = TestServers.valueOf(args[0])
			.start(List.of(args).subList(1, args.length).toArray(String[]::new));
		System.out.println(PORT_LINE + context.getEnvironment().getProperty("local.server.port"));
	}

}
