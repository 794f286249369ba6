package io.github.threadmodel.sample.web;

import org.springframework.test.context.TestPropertySource;

/** Every endpoint with virtual threads. */
@TestPropertySource(properties = "app.threads.model=virtual")
class VirtualModelTest extends WebEndpointsTestSupport {

	VirtualModelTest() {
		super("virtual");
	}

}
