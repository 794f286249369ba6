package io.github.threadmodel.internal.requests;

import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import org.springframework.context.support.GenericApplicationContext;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.http.server.reactive.MockServerHttpResponse;
import org.springframework.web.server.adapter.HttpWebHandlerAdapter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The WebFlux request count: once received when the handler is called, once completed
 * however it ends; the management server's handler, built from another context, is left
 * alone.
 */
class RequestCountingDecoratorTests {

	private final RequestCounts counts = new RequestCounts();

	private final GenericApplicationContext application = new GenericApplicationContext();

	private final RequestCountingDecorator decorator = new RequestCountingDecorator(this.counts);

	RequestCountingDecoratorTests() {
		this.decorator.setApplicationContext(this.application);
	}

	@Test
	void countsARequestReceivedWhenCalledAndCompletedWhenItsAnswerEnds() {
		Sinks.Empty<Void> answer = Sinks.empty();
		HttpHandler counting = this.decorator.apply((request, response) -> answer.asMono());
		handle(counting).subscribe();
		assertThat(this.counts.received()).isOne();
		assertThat(this.counts.completed()).isZero();
		answer.tryEmitEmpty();
		assertThat(this.counts.completed()).isOne();
	}

	@Test
	void countsAFailedAndACancelledRequestAsCompleted() {
		HttpHandler failing = this.decorator.apply((request, response) -> Mono.error(new IllegalStateException()));
		assertThatIllegalStateException().isThrownBy(() -> handle(failing).block());
		HttpHandler waiting = this.decorator.apply((request, response) -> Mono.never());
		Disposable subscription = handle(waiting).subscribe();
		assertThat(this.counts.completed()).isOne();
		subscription.dispose();
		assertThat(this.counts.received()).isEqualTo(2);
		assertThat(this.counts.completed()).isEqualTo(2);
	}

	@Test
	void countsAHandlerThatThrowsAsCompletedAndPassesItsErrorOn() {
		HttpHandler throwing = this.decorator.apply((request, response) -> {
			throw new IllegalStateException("thrown");
		});
		assertThatIllegalStateException().isThrownBy(() -> handle(throwing)).withMessage("thrown");
		assertThat(this.counts.received()).isOne();
		assertThat(this.counts.completed()).isOne();
	}

	@Test
	void decoratesTheHandlerOfItsOwnContextOnly() {
		HttpWebHandlerAdapter own = adapter(this.application);
		HttpWebHandlerAdapter management = adapter(new GenericApplicationContext(this.application));
		assertThat(this.decorator.apply(management)).isSameAs(management);
		assertThat(this.decorator.apply(own)).isNotSameAs(own);
	}

	private static Mono<Void> handle(HttpHandler handler) {
		return handler.handle(MockServerHttpRequest.get("/").build(), new MockServerHttpResponse());
	}

	private static HttpWebHandlerAdapter adapter(GenericApplicationContext context) {
		HttpWebHandlerAdapter adapter = new HttpWebHandlerAdapter((exchange) -> Mono.empty());
		adapter.setApplicationContext(context);
		return adapter;
	}

}
