package io.github.threadmodel.internal.overload;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.core.env.Environment;

/**
 * The health probes' own threads: a few platform threads of the starter's that run every
 * request a server adapter recognises as a probe from its request line, before the
 * request executor sees it. A probe there never waits for a turn of the request limit nor
 * for a carrier of the virtual threads (which a CPU-bound load can hold for seconds: virtual
 * threads are not time-sliced), and it costs no heap budget to recognise: a few hundred
 * bytes of the request line, given back to the server to read again.
 * <p>
 * Nothing else runs here: a later request read on a lane thread (pipelined on the probe's
 * connection) is handed to the request executor by the {@link OverloadFilter}.
 */
public final class ProbeLane implements Executor, AutoCloseable {

	/** Two threads: a probe is short, and a second one keeps a slow health check from holding all probes. */
	private static final int THREADS = 2;

	private final ProbePaths paths;

	private final String contextPath;

	private final ProbeRequestLine requestLine;

	private final ThreadPoolExecutor threads;

	/**
	 * Creates the lane; its threads start with the first probe and end after a minute idle.
	 * @param paths the probe paths, relative to the servlet context path
	 * @param contextPath the servlet context path ({@code ""} for the root)
	 */
	public ProbeLane(ProbePaths paths, String contextPath) {
		this.paths = paths;
		this.contextPath = contextPath;
		this.requestLine = new ProbeRequestLine(paths, contextPath);
		AtomicInteger count = new AtomicInteger();
		this.threads = new ThreadPoolExecutor(THREADS, THREADS, 1, TimeUnit.MINUTES, new LinkedBlockingQueue<>(),
				(task) -> new LaneThread(task, "probe-" + count.incrementAndGet()));
		this.threads.allowCoreThreadTimeOut(true);
	}

	/**
	 * The lane for the probe paths of the environment's Spring Boot and starter properties,
	 * under its servlet context path ({@code server.servlet.context-path}).
	 * @param environment the environment
	 * @param extra the paths of {@code app.threads.probes.paths}
	 * @return the lane
	 */
	public static ProbeLane of(Environment environment, List<String> extra) {
		return new ProbeLane(ProbePaths.of(environment, extra),
				ProbePaths.trimSlash(environment.getProperty("server.servlet.context-path", "")));
	}

	/**
	 * The probe paths.
	 * @return the paths
	 */
	public ProbePaths paths() {
		return this.paths;
	}

	/**
	 * How many bytes of a request's start a server adapter reads to tell a probe.
	 * @return the longest request line start that can name a probe
	 */
	public int peekBytes() {
		return this.requestLine.maxLength();
	}

	/**
	 * Whether the start of a request, as read from its connection, is a probe's request line.
	 * @param requestStart the bytes read, from its position to its limit; left unchanged
	 * @return whether it is a {@code GET} or {@code HEAD} of a probe path
	 */
	public boolean isProbe(ByteBuffer requestStart) {
		return this.requestLine.matches(requestStart);
	}

	/**
	 * Whether a request the server has parsed is a probe, for an adapter that sees it
	 * before the request executor does.
	 * @param method the request's method
	 * @param requestUri the request URI as the client sent it, without the query
	 * @return whether it is a {@code GET} or {@code HEAD} of a probe path
	 */
	public boolean isProbe(String method, String requestUri) {
		return ("GET".equals(method) || "HEAD".equals(method)) && this.paths.matches(requestUri, this.contextPath);
	}

	/**
	 * The lane's threads, to be read (by Micrometer's {@code ExecutorServiceMetrics} and the
	 * endpoint); nothing but a probe may be given to them.
	 * @return its threads
	 */
	public ThreadPoolExecutor threads() {
		return this.threads;
	}

	/**
	 * Runs a probe's work on a lane thread.
	 */
	@Override
	public void execute(Runnable probe) {
		this.threads.execute(probe);
	}

	/**
	 * Whether the current thread is one of a probe lane's.
	 * @return whether it is
	 */
	public static boolean runsCurrentThread() {
		return Thread.currentThread() instanceof LaneThread;
	}

	@Override
	public void close() {
		this.threads.shutdown();
	}

	/** A lane thread: platform, so that the OS time-slices it with every busy carrier. */
	private static final class LaneThread extends Thread {

		LaneThread(Runnable task, String name) {
			super(task, name);
			setDaemon(true);
		}

	}

}
