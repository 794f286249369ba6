package io.github.threadmodel.executor;

import java.time.Instant;

/**
 * One change of the thread model of a {@link ThreadModelExecutor}.
 *
 * @param at when it happened
 * @param from the model before
 * @param to the model after
 * @param source who or what asked for it
 * @param requestedBy who or what asked for it, in words
 * @param handedOver tasks that were waiting for a thread of the old model and moved to the new one
 * @since 0.1.0
 */
public record ModelSwitch(Instant at, ThreadModel from, ThreadModel to, SwitchSource source, String requestedBy,
		int handedOver) {

}
