package io.github.threadmodel.sample.reactive;

import io.github.threadmodel.sample.support.RedisOutageTestSupport;

import org.springframework.test.context.TestPropertySource;

/** Redis that hangs, then is gone, with platform threads (sample-web runs it with virtual threads). */
@TestPropertySource(properties = "app.threads.model=platform")
class RedisOutageTest extends RedisOutageTestSupport {

}
