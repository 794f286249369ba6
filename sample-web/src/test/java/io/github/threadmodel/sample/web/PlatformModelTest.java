package io.github.threadmodel.sample.web;

import org.springframework.test.context.TestPropertySource;

/** Every endpoint with platform threads. */
@TestPropertySource(properties = "app.threads.model=platform")
class PlatformModelTest extends WebEndpointsTestSupport {

	PlatformModelTest() {
		super("platform");
	}

}
