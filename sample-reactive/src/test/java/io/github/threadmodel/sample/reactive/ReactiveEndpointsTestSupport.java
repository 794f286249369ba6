package io.github.threadmodel.sample.reactive;

import io.github.threadmodel.sample.support.EndpointsTestSupport;

/**
 * The endpoint tests on this sample: the server is Reactor Netty, and the four {@code /products} calls are
 * {@code Mono.delay}s that complete on Reactor's timer threads ({@code parallel-N}): no request or task thread
 * waits for them.
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

}
