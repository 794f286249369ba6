package io.github.threadmodel.internal.requests;

import java.util.function.Consumer;

import reactor.core.publisher.Mono;
import reactor.core.publisher.SignalType;

import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationContextAware;
import org.springframework.core.Ordered;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.HttpHandlerDecoratorFactory;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.adapter.HttpWebHandlerAdapter;

/**
 * Counts each HTTP request of a WebFlux application once: received when the server hands
 * it to the application's {@link HttpHandler}, completed when that handler ends (with the
 * answer written, an error's answer among them, or cancelled by its client).
 * <p>
 * A decorator of the {@link HttpHandler} rather than a {@code WebFilter}: Spring's filter
 * chain adds to each request, per filter, a deferred call and a checkpoint named by a
 * string built for the request, which made up most of what the starter cost per request
 * on Reactor Netty (docs/benchmarks.md). Ordered last, so that it is the innermost
 * decorator and sees the {@link HttpWebHandlerAdapter} whose context it checks.
 * <p>
 * A management server on a port of its own builds its handler from a child context, which
 * sees this decorator too; its requests are not the application server's and are not
 * counted, as on servlet servers, where the child context does not see the parent's
 * filters.
 */
public class RequestCountingDecorator implements HttpHandlerDecoratorFactory, Ordered, ApplicationContextAware {

	private final RequestCounts counts;

	private ApplicationContext context;

	/**
	 * Creates the decorator.
	 * @param counts where to count
	 */
	public RequestCountingDecorator(RequestCounts counts) {
		this.counts = counts;
	}

	@Override
	public void setApplicationContext(ApplicationContext context) {
		this.context = context;
	}

	@Override
	public HttpHandler apply(HttpHandler handler) {
		if (handler instanceof HttpWebHandlerAdapter adapter && adapter.getApplicationContext() != null
				&& this.context != null && adapter.getApplicationContext() != this.context) {
			return handler; // another context's server: the management server
		}
		return new CountingHandler(handler, this.counts);
	}

	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

	private static final class CountingHandler implements HttpHandler {

		private final HttpHandler handler;

		private final RequestCounts counts;

		/** Made once, not per request: a lambda that captures is a new object each time. */
		private final Consumer<SignalType> completed;

		CountingHandler(HttpHandler handler, RequestCounts counts) {
			this.handler = handler;
			this.counts = counts;
			this.completed = (signal) -> counts.onCompleted();
		}

		@Override
		public Mono<Void> handle(ServerHttpRequest request, ServerHttpResponse response) {
			this.counts.onReceived();
			Mono<Void> handled;
			try {
				handled = this.handler.handle(request, response);
			}
			catch (RuntimeException | Error ex) {
				this.counts.onCompleted();
				throw ex;
			}
			return handled.doFinally(this.completed);
		}

	}

}
