package io.github.threadmodel.internal.auto;

import java.time.Duration;

import io.github.threadmodel.executor.ThreadModel;

/**
 * What the request executor did during one sampling window: the figures
 * {@link AutoThreadModelPolicy} decides on.
 *
 * @param model the model in force at the end of the window
 * @param window how long the window lasted
 * @param completed requests that finished in the window
 * @param queued requests and tasks waiting behind the limit at the end of the window
 * @param poolExhausted whether, at the end of the window, a platform pool had all its
 * threads busy (as many running as its maximum) and tasks waiting
 * @param threadWait how long the requests (or the application tasks, when their executor
 * follows the server's model) that got a thread in the window had waited for it, on
 * average; the longer of the two
 * @param cpuShare CPU time the requests and those tasks used on platform threads in the
 * window, as a share (0 to 1) of the time of every available processor; virtual threads do
 * not report their CPU time, so it is 0 on them
 * @param schedulingDelay how long a newly started virtual thread waited for a carrier
 * thread, on average (a probe measures it every tenth of a window)
 * @param longestSchedulingDelay the longest of those waits (a probe still waiting counts
 * with its wait so far)
 */
public record WorkloadSample(ThreadModel model, Duration window, long completed, int queued, boolean poolExhausted,
		Duration threadWait, double cpuShare, Duration schedulingDelay, Duration longestSchedulingDelay) {

}
