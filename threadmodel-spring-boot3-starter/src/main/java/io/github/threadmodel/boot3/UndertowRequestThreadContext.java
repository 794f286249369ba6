package io.github.threadmodel.boot3;

import io.github.threadmodel.internal.servers.RequestThreadContext;
import io.undertow.servlet.handlers.ServletRequestContext;

/**
 * Undertow's current servlet request, which its servlet implementation reads from the
 * thread that runs the request (sessions, dispatches, the response's writers), carried to
 * the thread that runs a request read ahead of its turn.
 */
final class UndertowRequestThreadContext implements RequestThreadContext {

	@Override
	public Runnable carry(Runnable work) {
		ServletRequestContext current = ServletRequestContext.current();
		if (current == null) {
			return work;
		}
		return () -> {
			ServletRequestContext.setCurrentRequestContext(current);
			try {
				work.run();
			}
			finally {
				ServletRequestContext.clearCurrentServletAttachments();
			}
		};
	}

}
