package io.github.threadmodel.sample.web;

import org.springframework.test.context.TestPropertySource;

/** Every endpoint with platform threads, against the real MariaDB and Redis of .ci/services.sh. */
@TestPropertySource(properties = "app.threads.model=platform")
class ServicesPlatformIT extends ServicesEndpointsTestSupport {

	ServicesPlatformIT() {
		super("platform");
	}

}
