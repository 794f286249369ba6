package io.github.threadmodel.sample.web;

import io.github.threadmodel.sample.support.EndpointsTestSupport;

/**
 * The endpoint tests on this sample: the server is the Maven profile's (Tomcat unless the build says otherwise),
 * and the four {@code /products} calls run on {@code applicationTaskExecutor}, the model's task threads.
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

}
