package io.github.threadmodel.sample.support;

import org.junit.jupiter.api.BeforeEach;

import org.springframework.boot.test.web.server.LocalServerPort;

/** A test of the application started on a random port, with {@link #http}, a fresh HTTP client to it per test. */
public abstract class HttpTestSupport {

	@LocalServerPort
	int port;

	protected Http http;

	@BeforeEach
	void client() {
		this.http = new Http(this.port);
	}

}
