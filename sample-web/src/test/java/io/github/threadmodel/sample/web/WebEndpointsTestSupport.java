package io.github.threadmodel.sample.web;

import io.github.threadmodel.sample.support.EndpointsTestSupport;
import io.github.threadmodel.sample.support.Http;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The endpoint tests on this sample: the server is the Maven profile's (Tomcat unless the build says otherwise),
 * and the four {@code /products} calls run on {@code applicationTaskExecutor}, the model's task threads; and the
 * endpoints only this sample has, {@code POST /echo}, {@code GET /pinned} and {@code GET /heavy}.
 */
abstract class WebEndpointsTestSupport extends EndpointsTestSupport {

	WebEndpointsTestSupport(String model) {
		super(model);
	}

	@Override
	protected String expectedServer() {
		return System.getProperty("sample.expected-server", "tomcat");
	}

	@Override
	protected String productCallThreadPrefix() {
		return "task-" + model() + "-";
	}

	@Test
	void echoAnswersTheBodyItRead() {
		String body = "{\"greeting\":\"Olá\"}";
		Http.Reply reply = this.http.postJson("/echo", body);
		assertThat(reply.status()).isEqualTo(200);
		assertThat(reply.contentType()).startsWith("text/plain");
		assertThat(reply.body()).isEqualTo(body);
	}

	@Test
	void pinnedSleepsOnARequestThreadOfTheModel() {
		Http.Reply reply = this.http.get("/pinned?ms=5");
		assertThat(reply.status()).isEqualTo(200);
		assertThat(reply.json().path("virtual").asBoolean()).isEqualTo("virtual".equals(model()));
		assertThat(this.http.get("/pinned?ms=-1").status()).isEqualTo(400);
	}

	@Test
	void heavyHoldsTheHeapItWasAskedFor() {
		Http.Reply reply = this.http.get("/heavy?kb=64&ms=20&steps=4");
		assertThat(reply.status()).isEqualTo(200);
		assertThat(reply.body()).isEqualTo(String.valueOf(64 * 1024));
		assertThat(this.http.get("/heavy?kb=4&steps=5").status()).isEqualTo(400);
	}

}
