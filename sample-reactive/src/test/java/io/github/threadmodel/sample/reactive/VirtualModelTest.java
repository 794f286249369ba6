package io.github.threadmodel.sample.reactive;

import org.springframework.test.context.TestPropertySource;

/** Every endpoint with virtual threads. */
@TestPropertySource(properties = "app.threads.model=virtual")
class VirtualModelTest extends ReactiveEndpointsTestSupport {

	VirtualModelTest() {
		super("virtual");
	}

}
