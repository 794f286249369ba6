package io.github.threadmodel.sample.reactive;

import org.springframework.test.context.TestPropertySource;

/** Every endpoint with platform threads. */
@TestPropertySource(properties = "app.threads.model=platform")
class PlatformModelTest extends ReactiveEndpointsTestSupport {

	PlatformModelTest() {
		super("platform");
	}

}
