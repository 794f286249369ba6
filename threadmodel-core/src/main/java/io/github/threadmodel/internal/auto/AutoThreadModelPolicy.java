package io.github.threadmodel.internal.auto;

import java.time.Duration;
import java.time.Instant;
import java.util.Locale;

import io.github.threadmodel.executor.ThreadModel;

/**
 * Decides, window after window, whether the request executor should switch between
 * platform and virtual threads. Plain values in, a decision and its reason out: no clock,
 * no threads, no I/O.
 * <ul>
 * <li>On <b>platform</b> threads, requests (or application tasks) that wait for a pool
 * thread while every thread of the pool is busy and the threads use little CPU mean the
 * threads are blocked (I/O, sleeps, locks): virtual threads would run those requests at
 * once, so the policy calls for {@link ThreadModel#VIRTUAL}. Waits while the pool has
 * threads to spare are the OS scheduling an oversubscribed CPU, not a shortage.
 * When the threads are busy computing instead, more threads would not help, and it stays.</li>
 * <li>On <b>virtual</b> threads, a new virtual thread that waits long for a carrier means
 * CPU-bound requests are holding the carriers (virtual threads are not time-sliced) and
 * starving the others: the policy calls for {@link ThreadModel#PLATFORM}, whose threads the
 * OS time-slices.</li>
 * </ul>
 * A switch needs {@link Thresholds#agreeingWindows()} consecutive windows calling for it,
 * and {@link Thresholds#minDwell()} since the last switch, so that a burst does not make it
 * flap. The two directions read different signals, each with its own threshold.
 * <p>
 * One signal does not wait for the windows: a probe virtual thread that has waited
 * {@link Thresholds#severeSchedulingDelay()} for a carrier, and still waits, shows that every
 * carrier has been held all that time, so every request started meanwhile waits too. Each
 * second on starving virtual threads costs every request, while a switch to platform threads
 * that was not needed costs little, so {@link #decideStarving} switches at once (after the
 * minimum dwell).
 */
public final class AutoThreadModelPolicy {

	private final Thresholds thresholds;

	/** What {@link #decideStarving} answers on nearly every tick, made once. */
	private final Decision notStarving;

	/**
	 * When auto last switched (or the model was switched by other means), or {@code null}
	 * before any switch.
	 */
	private Instant lastSwitch;

	private ThreadModel calledFor;

	private int agreeing;

	/**
	 * Creates a policy.
	 * @param thresholds when to switch
	 */
	public AutoThreadModelPolicy(Thresholds thresholds) {
		this.thresholds = thresholds;
		this.notStarving = Decision.stay("no new virtual thread has waited %s ms for a carrier thread"
			.formatted(millis(thresholds.severeSchedulingDelay())));
	}

	/**
	 * Reads one window's figures and decides.
	 * @param sample the window's figures
	 * @param now when the window ended
	 * @return a switch, with why; or staying, with why
	 */
	public Decision decide(WorkloadSample sample, Instant now) {
		Verdict verdict = judge(sample);
		if (verdict.target() == null) {
			this.calledFor = null;
			this.agreeing = 0;
			return Decision.stay(verdict.reason());
		}
		this.agreeing = (verdict.target() == this.calledFor) ? this.agreeing + 1 : 1;
		this.calledFor = verdict.target();
		if (this.agreeing < this.thresholds.agreeingWindows()) {
			return Decision.stay("%s (window %d of %d calling for %s threads)".formatted(verdict.reason(),
					this.agreeing, this.thresholds.agreeingWindows(), verdict.target().id()));
		}
		return switchAfterDwell(verdict.target(), verdict.reason(), sample.model(), now);
	}

	/**
	 * Reads, between windows, how long the probe that is still waiting for a carrier has
	 * waited so far: on virtual threads, from {@link Thresholds#severeSchedulingDelay()} on,
	 * it switches to platform threads without waiting for agreeing windows.
	 * @param model the model in force
	 * @param waiting how long the waiting probe has waited, zero when none waits
	 * @param now the time of the reading
	 * @return a switch, with why; or staying
	 */
	public Decision decideStarving(ThreadModel model, Duration waiting, Instant now) {
		Duration severe = this.thresholds.severeSchedulingDelay();
		if (model != ThreadModel.VIRTUAL || waiting.compareTo(severe) < 0) {
			return this.notStarving;
		}
		String reason = ("a new virtual thread has waited %s ms for a carrier thread and still waits (switch at once "
				+ "from %s ms): CPU-bound requests hold every carrier and starve the others")
			.formatted(millis(waiting), millis(severe));
		return switchAfterDwell(ThreadModel.PLATFORM, reason, model, now);
	}

	private Decision switchAfterDwell(ThreadModel target, String reason, ThreadModel model, Instant now) {
		Duration dwelt = (this.lastSwitch != null) ? Duration.between(this.lastSwitch, now) : null;
		if (dwelt != null && dwelt.compareTo(this.thresholds.minDwell()) < 0) {
			return Decision.stay("%s (waiting: %s of the minimum %s on %s threads)".formatted(reason, seconds(dwelt),
					seconds(this.thresholds.minDwell()), model.id()));
		}
		restart(now);
		return new Decision(target, reason);
	}

	/**
	 * Starts over after the model changed by other means (a manual switch): the minimum
	 * dwell counts from now, and no window calls for a switch yet.
	 * @param now when the model changed
	 */
	public void restart(Instant now) {
		this.lastSwitch = now;
		this.calledFor = null;
		this.agreeing = 0;
	}

	private Verdict judge(WorkloadSample sample) {
		Thresholds limits = this.thresholds;
		if (sample.model() == ThreadModel.VIRTUAL) {
			String delay = "a new virtual thread waited %s ms for a carrier thread, on average (switch at %s ms)"
				.formatted(millis(sample.schedulingDelay()), millis(limits.schedulingDelay()));
			if (sample.schedulingDelay().compareTo(limits.schedulingDelay()) >= 0) {
				return new Verdict(ThreadModel.PLATFORM,
						delay + ": CPU-bound requests hold the carriers and starve the others");
			}
			return new Verdict(null, delay);
		}
		String wait = "requests or tasks waited %s ms for a platform thread, on average (switch at %s ms)"
			.formatted(millis(sample.threadWait()), millis(limits.threadWait()));
		if (!sample.poolExhausted() || sample.threadWait().compareTo(limits.threadWait()) < 0) {
			return new Verdict(null, wait + ((sample.poolExhausted()) ? "" : " with threads to spare")
					+ ": there are threads enough");
		}
		wait = "every platform thread was busy and " + wait;
		String cpu = "their threads used %s%% of the CPU (busy from %s%%)".formatted(
				percent(sample.cpuShare()), percent(limits.cpuBusyShare()));
		if (sample.cpuShare() >= limits.cpuBusyShare()) {
			return new Verdict(null, wait + " and " + cpu + ": they compute, more threads would not help");
		}
		return new Verdict(ThreadModel.VIRTUAL,
				wait + " while " + cpu + ": they are blocked, virtual threads would not run short");
	}

	private static String millis(Duration duration) {
		return String.format(Locale.ROOT, "%.1f", duration.toNanos() / 1_000_000.0);
	}

	private static String percent(double share) {
		return String.format(Locale.ROOT, "%.0f", share * 100);
	}

	private static String seconds(Duration duration) {
		return String.format(Locale.ROOT, "%.1fs", duration.toMillis() / 1000.0);
	}

	private record Verdict(ThreadModel target, String reason) {

	}

	/**
	 * When the policy switches.
	 *
	 * @param threadWait on platform threads, the average wait for a pool thread from which
	 * threads run short
	 * @param cpuBusyShare on platform threads, the share (0 to 1) of the processors' time
	 * from which the request threads count as computing rather than blocked
	 * @param schedulingDelay on virtual threads, the average wait of a new virtual thread
	 * for a carrier from which CPU-bound requests starve the others
	 * @param severeSchedulingDelay on virtual threads, the wait of one new virtual thread
	 * for a carrier from which auto switches at once, without agreeing windows
	 * @param agreeingWindows consecutive windows that must call for the same switch
	 * @param minDwell the least time after a switch before the next one
	 */
	public record Thresholds(Duration threadWait, double cpuBusyShare, Duration schedulingDelay,
			Duration severeSchedulingDelay, int agreeingWindows, Duration minDwell) {

	}

	/**
	 * What the policy decided after a window.
	 *
	 * @param switchTo the model to switch to, or {@code null} to stay
	 * @param reason why, with the figures
	 */
	public record Decision(ThreadModel switchTo, String reason) {

		static Decision stay(String reason) {
			return new Decision(null, reason);
		}

		/**
		 * Whether the decision is a switch.
		 * @return {@code true} to switch
		 */
		public boolean isSwitch() {
			return this.switchTo != null;
		}

	}

	/**
	 * What the request executor did during one sampling window: the figures the policy
	 * decides on.
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
	public record WorkloadSample(ThreadModel model, Duration window, long completed, int queued,
			boolean poolExhausted, Duration threadWait, double cpuShare, Duration schedulingDelay,
			Duration longestSchedulingDelay) {

	}

}
