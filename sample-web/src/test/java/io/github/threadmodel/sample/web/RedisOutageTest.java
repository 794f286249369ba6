package io.github.threadmodel.sample.web;

import io.github.threadmodel.sample.support.RedisOutageTestSupport;

import org.springframework.test.context.TestPropertySource;

/** Redis that hangs, then is gone, with virtual threads (sample-reactive runs it with platform threads). */
@TestPropertySource(properties = "app.threads.model=virtual")
class RedisOutageTest extends RedisOutageTestSupport {

}
