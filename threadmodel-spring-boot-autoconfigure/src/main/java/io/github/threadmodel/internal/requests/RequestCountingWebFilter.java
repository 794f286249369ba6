package io.github.threadmodel.internal.requests;

import reactor.core.publisher.Mono;

import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationContextAware;
import org.springframework.core.Ordered;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

/**
 * Counts each HTTP request of a WebFlux application once: received when it enters the
 * filter chain, completed when the chain ends (with the answer written, with an error that
 * an exception handler answers next, or cancelled by its client). Ordered first.
 * <p>
 * A management server on a port of its own builds its handler from a child context,
 * which sees this filter too; its requests are not the application server's and are not
 * counted, as on servlet servers, where the child context does not see the parent's
 * filters.
 */
public class RequestCountingWebFilter implements WebFilter, Ordered, ApplicationContextAware {

	private final RequestCounts counts;

	private ApplicationContext context;

	/**
	 * Creates the filter.
	 * @param counts where to count
	 */
	public RequestCountingWebFilter(RequestCounts counts) {
		this.counts = counts;
	}

	@Override
	public void setApplicationContext(ApplicationContext context) {
		this.context = context;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		ApplicationContext served = exchange.getApplicationContext();
		if (served != null && this.context != null && served != this.context) {
			return chain.filter(exchange); // another context's server: the management server
		}
		this.counts.onReceived();
		return Mono.defer(() -> chain.filter(exchange)).doFinally((signal) -> this.counts.onCompleted());
	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

}
