package io.github.threadmodel.internal.servers;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * How to stop each server's connectors taking new connections while the connections
 * already open keep being served, registered by the server adapters as they are applied.
 * Spring Boot's graceful shutdown does this too, but only once {@link QueuedRequestsDrain}
 * has let the requests waiting for a thread run.
 */
final class ConnectionAcceptors {

	private final List<Runnable> stops = new CopyOnWriteArrayList<>();

	void add(Runnable stop) {
		this.stops.add(stop);
	}

	/**
	 * Stops every registered connector taking new connections.
	 */
	public void stopAccepting() {
		this.stops.forEach(Runnable::run);
	}

}
