package io.github.threadmodel.boot3;

import java.util.concurrent.LinkedTransferQueue;

import io.undertow.server.ExchangeCompletionListener;
import io.undertow.server.HandlerWrapper;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Hands the end of an exchange that a virtual thread completes (the step where Undertow
 * makes the connection ready for its next request) to a platform thread, on JDK 24 and
 * later.
 * <p>
 * That step takes locks that the connection's I/O thread takes too (XNIO's work queue,
 * the selector's wake-up), under a state the I/O thread spins on when the connection's
 * next request arrives meanwhile. Since JDK 24 a virtual thread that finds a lock taken
 * unmounts, and then needs a carrier to go on, behind every runnable virtual thread; the
 * I/O thread waits for it, spinning or blocked, and reads no other connection. Under
 * CPU-bound requests that was seconds, and the health probes those connections carried
 * timed out; handing the step to the I/O thread itself only moved the wait to its work
 * queue's lock (thread dumps and figures: docs/results/2026-11-29-undertow-io-thread-wait.md).
 * A platform thread that meets a taken lock waits only as long as it is held. The hand-off
 * itself takes no lock: a lock-free queue and an unpark. On JDK 21, where a virtual
 * thread keeps its carrier while it waits for a lock, the exchange ends where it is.
 * <p>
 * One daemon thread does this for every Undertow server of the JVM: the step is a few
 * field writes and an interest change on a selection key, far less than the request. The
 * listener is added when the request enters the deployment, after those of the handlers
 * around it, so it runs before theirs and before the connection's own, which it hands on.
 */
final class UndertowCompletionOffVirtualThreads implements HandlerWrapper {

	/** Whether a virtual thread that finds a monitor taken gives up its carrier (JEP 491). */
	private static final boolean UNMOUNTS_ON_MONITORS = Runtime.version().feature() >= 24;

	private static final ExchangeCompletionListener OFF_VIRTUAL_THREADS = UndertowCompletionOffVirtualThreads::complete;

	@Override
	public HttpHandler wrap(HttpHandler next) {
		if (!UNMOUNTS_ON_MONITORS) {
			return next;
		}
		return (exchange) -> {
			exchange.addExchangeCompleteListener(OFF_VIRTUAL_THREADS);
			next.handleRequest(exchange);
		};
	}

	private static void complete(HttpServerExchange exchange, ExchangeCompletionListener.NextListener rest) {
		if (Thread.currentThread().isVirtual()) {
			Completions.INSTANCE.queue.offer(rest::proceed);
		}
		else {
			rest.proceed();
		}
	}

	/**
	 * The platform thread that ends exchanges, started with the first one.
	 */
	private static final class Completions implements Runnable {

		static final String THREAD_NAME = "undertow-exchange-completion";

		private static final Completions INSTANCE = start();

		private static final Log logger = LogFactory.getLog(UndertowCompletionOffVirtualThreads.class);

		private final LinkedTransferQueue<Runnable> queue = new LinkedTransferQueue<>();

		private static Completions start() {
			Completions completions = new Completions();
			Thread.ofPlatform().name(THREAD_NAME).daemon().start(completions);
			return completions;
		}

		@Override
		public void run() {
			while (true) {
				try {
					this.queue.take().run();
				}
				catch (InterruptedException ex) {
					// nobody interrupts this thread but a JVM that exits: it is a daemon
				}
				catch (Throwable ex) {
					// this one thread ends every exchange a virtual thread completes: were it to
					// die, no connection would be readied again, nor counted done at shutdown
					logger.warn("Ending an exchange failed", ex);
				}
			}
		}

	}

}
