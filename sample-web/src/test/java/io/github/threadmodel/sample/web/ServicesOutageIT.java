package io.github.threadmodel.sample.web;

import io.github.threadmodel.sample.support.ServicesOutageTestSupport;

import org.springframework.test.context.TestPropertySource;

/** redis-server stopped and MariaDB cut, with virtual threads (sample-reactive runs it with platform threads). */
@TestPropertySource(properties = "app.threads.model=virtual")
class ServicesOutageIT extends ServicesOutageTestSupport {

}
