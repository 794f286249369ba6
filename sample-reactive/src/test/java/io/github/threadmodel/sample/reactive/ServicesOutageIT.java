package io.github.threadmodel.sample.reactive;

import io.github.threadmodel.sample.support.ServicesOutageTestSupport;

import org.springframework.test.context.TestPropertySource;

/** redis-server stopped and MariaDB cut, with platform threads (sample-web runs it with virtual threads). */
@TestPropertySource(properties = "app.threads.model=platform")
class ServicesOutageIT extends ServicesOutageTestSupport {

}
