package io.github.threadmodel.internal.servers;

/**
 * What a server keeps on the thread that reads a request and its servlet code needs on
 * any thread that runs the request, for a request read ahead of its turn whose rest runs on
 * the thread that admitted it (see {@code io.github.threadmodel.internal.handoff.RequestTurn}).
 * The thread's context class loader always comes along; a server that keeps more (Undertow's
 * current servlet request) adds an implementation as a bean.
 */
@FunctionalInterface
public interface RequestThreadContext {

	/**
	 * Called on the thread that read the request: wraps the work so that it runs with this
	 * thread's context on another thread.
	 * @param work the rest of the request
	 * @return the work, run within the context
	 */
	Runnable carry(Runnable work);

}
