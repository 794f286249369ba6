package io.github.threadmodel.sample.web;

import io.github.threadmodel.sample.support.EndpointsTestSupport;
import io.github.threadmodel.sample.support.Http;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The endpoint tests on this sample: the server is the Maven profile's (Tomcat unless the build says otherwise),
 * and the four {@code /products} calls run on {@code applicationTaskExecutor}, the model's task threads; and the
 * endpoint only this sample has, {@code POST /echo}.
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

}
