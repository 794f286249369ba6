package io.github.threadmodel.boot3;

import java.util.concurrent.Executor;

import io.github.threadmodel.internal.overload.ProbeLane;
import io.undertow.server.HandlerWrapper;
import io.undertow.server.HttpHandler;

/**
 * The executor Undertow's servlet deployment gets: it sends a health probe to the
 * {@link ProbeLane} and every other request to the request executor. Undertow parses a
 * request on its I/O thread, then its servlet handler dispatches the request to the
 * deployment's executor from that same thread, right after the handler chain returns.
 * The handler this wraps around the servlet handler marks a probe's dispatch on the I/O
 * thread, from the method and the request URI as the client wrote it, and the executor
 * takes the mark; no request is read twice.
 */
final class UndertowProbeRouting implements Executor, HandlerWrapper {

	/** Set on an I/O thread between a probe's handling and its dispatch. */
	private static final ThreadLocal<Boolean> probeDispatch = new ThreadLocal<>();

	private final Executor requests;

	private final ProbeLane probes;

	UndertowProbeRouting(Executor requests, ProbeLane probes) {
		this.requests = requests;
		this.probes = probes;
	}

	@Override
	public HttpHandler wrap(HttpHandler servlets) {
		return (exchange) -> {
			if (exchange.isInIoThread()
					&& this.probes.isProbe(exchange.getRequestMethod().toString(), exchange.getRequestURI())) {
				probeDispatch.set(Boolean.TRUE);
			}
			servlets.handleRequest(exchange);
		};
	}

	@Override
	public void execute(Runnable task) {
		if (probeDispatch.get() != null) {
			probeDispatch.remove();
			this.probes.execute(task);
		}
		else {
			this.requests.execute(task);
		}
	}

}
