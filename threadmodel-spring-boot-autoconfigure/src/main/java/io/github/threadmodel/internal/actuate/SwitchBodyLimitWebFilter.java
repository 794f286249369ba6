package io.github.threadmodel.internal.actuate;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

/**
 * Refuses a write to the {@code threadmodel} endpoint whose body is larger than
 * {@link SwitchBodyLimit#MAX_BYTES} with 413, on WebFlux: at once for a
 * {@code Content-Length} over it, otherwise as soon as the bytes read pass it.
 */
public class SwitchBodyLimitWebFilter implements WebFilter {

	private final SwitchBodyLimit limit;

	/**
	 * Creates the filter.
	 * @param limit the limit
	 */
	public SwitchBodyLimitWebFilter(SwitchBodyLimit limit) {
		this.limit = limit;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		ServerHttpRequest request = exchange.getRequest();
		if (!this.limit.applies(request.getMethod().name(), request.getPath().pathWithinApplication().value())) {
			return chain.filter(exchange);
		}
		if (request.getHeaders().getContentLength() > SwitchBodyLimit.MAX_BYTES) {
			ServerHttpResponse response = exchange.getResponse();
			response.setStatusCode(SwitchBodyLimit.STATUS);
			response.getHeaders().setContentType(MediaType.TEXT_PLAIN);
			response.getHeaders().setContentLength(SwitchBodyLimit.MESSAGE.length);
			return response.writeWith(Mono.just(response.bufferFactory().wrap(SwitchBodyLimit.MESSAGE)));
		}
		return chain.filter(exchange.mutate().request(new LimitedBody(request)).build());
	}

	/**
	 * The request with a body that fails with 413 once more than the limit was read.
	 */
	private static final class LimitedBody extends ServerHttpRequestDecorator {

		LimitedBody(ServerHttpRequest request) {
			super(request);
		}

		@Override
		public Flux<DataBuffer> getBody() {
			AtomicLong read = new AtomicLong();
			return super.getBody().handle((buffer, sink) -> {
				if (read.addAndGet(buffer.readableByteCount()) > SwitchBodyLimit.MAX_BYTES) {
					DataBufferUtils.release(buffer);
					sink.error(new ResponseStatusException(SwitchBodyLimit.STATUS,
							new String(SwitchBodyLimit.MESSAGE, StandardCharsets.UTF_8).strip()));
				}
				else {
					sink.next(buffer);
				}
			});
		}

	}

}
