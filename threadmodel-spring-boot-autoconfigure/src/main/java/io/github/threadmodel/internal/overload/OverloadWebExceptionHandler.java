package io.github.threadmodel.internal.overload;

import java.time.Duration;
import java.util.List;

import io.github.threadmodel.executor.Refusal;
import io.github.threadmodel.internal.requests.RequestCounts;
import reactor.core.publisher.Mono;

import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebExceptionHandler;

/**
 * Answers a WebFlux request that the request executor refused under overload with 503
 * and {@code Retry-After}. On WebFlux the executor runs only controller methods that
 * block; {@link io.github.threadmodel.internal.servers.ThreadModelWebFluxConfigurer} ends a refused one with an error before the
 * method runs, and this handler answers that error. Ordered before Spring Boot's error
 * handler ({@code -1}). Each 503 it writes is counted as rejected.
 */
public class OverloadWebExceptionHandler implements WebExceptionHandler, Ordered {

	private final OverloadAnswer answer;

	private final RequestCounts counts;

	/**
	 * Creates the handler.
	 * @param retryAfter the {@code Retry-After} to send, rounded up to whole seconds
	 * @param counts where to count the 503 answers
	 */
	public OverloadWebExceptionHandler(Duration retryAfter, RequestCounts counts) {
		this.answer = new OverloadAnswer(retryAfter);
		this.counts = counts;
	}

	@Override
	public Mono<Void> handle(ServerWebExchange exchange, Throwable error) {
		Refusal refusal = RefusedRequestException.find(error);
		ServerHttpResponse response = exchange.getResponse();
		if (refusal == null || !response.setStatusCode(HttpStatus.SERVICE_UNAVAILABLE)) {
			return Mono.error(error);
		}
		boolean json = wantsJson(exchange.getRequest().getHeaders());
		byte[] body = this.answer.body(refusal, json);
		HttpHeaders headers = response.getHeaders();
		headers.set(OverloadAnswer.RETRY_AFTER, this.answer.retryAfter());
		headers.setContentType(this.answer.contentType(json));
		headers.setContentLength(body.length);
		return response.writeWith(Mono.fromSupplier(() -> response.bufferFactory().wrap(body)))
			.doOnSuccess((done) -> this.counts.onRejected(refusal));
	}

	private static boolean wantsJson(HttpHeaders headers) {
		try {
			List<MediaType> accepted = headers.getAccept();
			return OverloadAnswer.wantsJson(accepted);
		}
		catch (InvalidMediaTypeException ex) {
			return false;
		}
	}

	@Override
	public int getOrder() {
		return -2;
	}

}
