package io.github.threadmodel.autoconfigure;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.HttpHandlerDecoratorFactory;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ResponseStatusException;

/**
 * Refuses a write to the {@code threadmodel} endpoint whose body is larger than
 * {@link SwitchBodyLimit#MAX_BYTES} with 413, on WebFlux: at once for a
 * {@code Content-Length} over it, otherwise as soon as the bytes read pass it. A
 * decorator of the {@link HttpHandler}, not a {@code WebFilter}, for the reason
 * {@code RequestCountingDecorator} gives: every other request costs it one comparison of
 * its method.
 */
class SwitchBodyLimitDecorator implements HttpHandlerDecoratorFactory {

	private final SwitchBodyLimit limit;

	/**
	 * Creates the decorator.
	 * @param limit the limit
	 */
	public SwitchBodyLimitDecorator(SwitchBodyLimit limit) {
		this.limit = limit;
	}

	@Override
	public HttpHandler apply(HttpHandler handler) {
		// the method first, as SwitchBodyLimit.applies does, so that no other request has its
		// path parsed here (WebFluxRequestBenchmark: 176 bytes a request when it is)
		return (request, response) -> (HttpMethod.POST.equals(request.getMethod())
				&& this.limit.applies(HttpMethod.POST.name(), request.getPath().pathWithinApplication().value()))
						? limited(handler, request, response) : handler.handle(request, response);
	}

	private static Mono<Void> limited(HttpHandler handler, ServerHttpRequest request, ServerHttpResponse response) {
		if (request.getHeaders().getContentLength() > SwitchBodyLimit.MAX_BYTES) {
			response.setStatusCode(SwitchBodyLimit.STATUS);
			response.getHeaders().setContentType(MediaType.TEXT_PLAIN);
			response.getHeaders().setContentLength(SwitchBodyLimit.MESSAGE.length);
			return response.writeWith(Mono.just(response.bufferFactory().wrap(SwitchBodyLimit.MESSAGE)));
		}
		return handler.handle(new LimitedBody(request), response);
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
