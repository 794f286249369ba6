package io.github.threadmodel.executor;

import java.time.Duration;

/**
 * Makes a {@link ThreadModelExecutor} answer overload instead of refusing work with a
 * {@link java.util.concurrent.RejectedExecutionException}, which web servers turn into a
 * dropped connection: a task beyond the limits (platform queue full, or a wait for a
 * virtual-thread permit longer than {@code queueTimeout}) runs at once on a virtual thread
 * of its own with its {@link Refusal} set, and is counted as rejected.
 *
 * @param queueTimeout the longest a task may wait for a permit of the virtual concurrency
 * limit, or {@code null} to wait without limit
 * @since 0.1.0
 */
public record OverloadProtection(Duration queueTimeout) {

}
