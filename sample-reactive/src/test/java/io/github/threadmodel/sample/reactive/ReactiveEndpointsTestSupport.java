package io.github.threadmodel.sample.reactive;

import io.github.threadmodel.sample.support.EndpointsTestSupport;
import io.github.threadmodel.sample.support.Http;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The endpoint tests on this sample: the server is Reactor Netty, and the four {@code /products} calls are
 * {@code Mono.delay}s that complete on Reactor's timer threads ({@code parallel-N}): no request or task thread
 * waits for them. The endpoint only this sample has, {@code /greetings/blocking}, is checked here.
 */
abstract class ReactiveEndpointsTestSupport extends EndpointsTestSupport {

	ReactiveEndpointsTestSupport(String model) {
		super(model);
	}

	@Override
	protected String expectedServer() {
		return "netty";
	}

	@Override
	protected String productCallThreadPrefix() {
		return "parallel-";
	}

	@Test
	void blockingGreetingsWaitTheDelayAndUseTheName() {
		Http.Reply reply = this.http.get("/greetings/blocking?name=Ana");
		assertThat(reply.status()).isEqualTo(200);
		assertThat(reply.contentType()).startsWith("text/plain");
		assertThat(reply.body()).matches("(Hello|Hi|Olá|Oi|Hallo) Ana!");
		assertThat(reply.millis()).isGreaterThanOrEqualTo(200);
	}

}
