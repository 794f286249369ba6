package io.github.threadmodel.sample.reactive;

import org.springframework.test.context.TestPropertySource;

/** Every endpoint with virtual threads, against the real MariaDB and Redis of .ci/services.sh. */
@TestPropertySource(properties = "app.threads.model=virtual")
class ServicesVirtualIT extends ServicesEndpointsTestSupport {

	ServicesVirtualIT() {
		super("virtual");
	}

}
