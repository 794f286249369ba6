package io.github.threadmodel.internal.servers;

import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

import io.github.threadmodel.executor.Refusal;
import io.github.threadmodel.executor.ThreadModelExecutor;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.context.SmartLifecycle;

/**
 * Lets the requests that wait for a thread run before Spring Boot's graceful shutdown
 * begins. Tomcat and Jetty count a request as active only once a thread serves it, so
 * their graceful shutdown does not wait for the requests in the starter's queue: Tomcat
 * answers them 503 once it is paused, and both close their connections when the server
 * stops. In the phase just before it, this stops the connectors taking new connections,
 * waits until no request waits for a thread, and answers the ones still waiting when the
 * timeout passes 503 with {@code Retry-After} ({@link Refusal#SHUTDOWN}); then Spring
 * Boot's graceful shutdown waits for the running requests, with a timeout of its own.
 * The requests waiting in a lane's queue are drained the same way, after those of the
 * request executor (which may enter a lane once they run), within the same timeout.
 */
public final class QueuedRequestsDrain implements SmartLifecycle {

	/**
	 * One above the phase of Spring Boot's graceful shutdown
	 * ({@code WebServerApplicationContext.GRACEFUL_SHUTDOWN_PHASE}, whose class moved in
	 * Spring Boot 4), so that this stops just before it.
	 */
	public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 1024 + 1;

	private static final Log logger = LogFactory.getLog(QueuedRequestsDrain.class);

	private final Supplier<List<ThreadModelExecutor>> executors;

	private final ConnectionAcceptors acceptors;

	private final Duration timeout;

	private volatile boolean running;

	/**
	 * Creates the drain.
	 * @param executors the request executor, then the lanes' executors
	 * @param intake the connections, whose connectors stop taking new ones
	 * @param timeout how long the waiting requests may take to start
	 * ({@code spring.lifecycle.timeout-per-shutdown-phase})
	 */
	public QueuedRequestsDrain(Supplier<List<ThreadModelExecutor>> executors, ConnectionIntake intake,
			Duration timeout) {
		this.executors = executors;
		this.acceptors = intake.acceptors();
		this.timeout = timeout;
	}

	@Override
	public void start() {
		this.running = true;
	}

	@Override
	public void stop() {
		this.running = false;
		this.acceptors.stopAccepting();
		List<ThreadModelExecutor> executors = this.executors.get();
		int waiting = executors.stream().mapToInt((executor) -> executor.recorder().queued()).sum();
		if (waiting == 0) {
			return;
		}
		logger.info("Graceful shutdown: letting %d requests that wait for a thread run (at most %s)"
			.formatted(waiting, this.timeout));
		long deadline = System.nanoTime() + this.timeout.toNanos();
		try {
			int refused = 0;
			for (ThreadModelExecutor executor : executors) {
				refused += executor.finishQueued(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
			}
			if (refused > 0) {
				logger.warn("Graceful shutdown: %d requests still waited for a thread after %s; answered 503"
					.formatted(refused, this.timeout));
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public int getPhase() {
		return PHASE;
	}

}
