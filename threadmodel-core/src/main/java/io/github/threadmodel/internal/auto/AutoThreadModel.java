package io.github.threadmodel.internal.auto;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.github.threadmodel.executor.ModelSwitch;
import io.github.threadmodel.executor.SwitchRequest;
import io.github.threadmodel.executor.SwitchSource;
import io.github.threadmodel.executor.ThreadModel;
import io.github.threadmodel.executor.ThreadModelChoice;
import io.github.threadmodel.executor.ThreadModelExecutor;
import io.github.threadmodel.executor.ThreadModelSwitcher;
import io.github.threadmodel.internal.auto.AutoThreadModelPolicy.WorkloadSample;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.context.SmartLifecycle;

/**
 * {@code app.threads.model=auto}: samples the request executor every window, lets an
 * {@link AutoThreadModelPolicy} decide, and makes its switches through the
 * {@link ThreadModelSwitcher}, so that the application task executor follows when it
 * follows the server, and the switch history and meters record them like any other
 * switch ({@code requestedBy} is {@code auto: <reason>}). Every tenth of a window it also
 * starts a {@link SchedulingDelayProbe} and asks the policy about the probe still waiting,
 * so that starving virtual threads are left without waiting for the windows.
 * <p>
 * A switch asked for by anyone else (the actuator endpoint, a configuration change) pauses
 * it: the model stays as asked until {@link #resume()}, which a switch request for
 * {@code auto} calls through the switcher.
 */
public final class AutoThreadModel implements SmartLifecycle {

	private static final Log logger = LogFactory.getLog(AutoThreadModel.class);

	private static final int DECISIONS_KEPT = 10;

	private static final int PROBES_PER_WINDOW = 10;

	private static final Duration STOP_TIMEOUT = Duration.ofSeconds(5);

	private final ThreadModelSwitcher switcher;

	private final ThreadModelExecutor requests;

	private final List<ThreadModelExecutor> switched;

	private final Duration window;

	private final Clock clock;

	private final AutoThreadModelPolicy policy;

	private final String resumeHint;

	private final SchedulingDelayProbe probe = new SchedulingDelayProbe();

	private final Deque<AutoDecision> decisions = new ArrayDeque<>();

	private volatile ScheduledExecutorService scheduler;

	private volatile String pausedBy;

	private volatile WorkloadSample lastSample;

	private volatile String lastReason = "no window sampled yet";

	private WorkloadSampler sampler;

	private long lastTickNanos;

	/**
	 * Creates the controller; {@link #start()} begins sampling.
	 * @param switcher makes the switches
	 * @param requests the request executor, whose figures are sampled
	 * @param followingTasks the application task executor when it follows the server's
	 * model (its figures are sampled too), otherwise {@code null}
	 * @param thresholds when to switch
	 * @param window how long each sample lasts
	 * @param clock the clock of the decisions' times
	 * @param resumeHint how to resume auto once a switch by hand paused it, the end of the
	 * INFO line about the pause (the core does not know the endpoint's path nor the
	 * property's name)
	 */
	public AutoThreadModel(ThreadModelSwitcher switcher, ThreadModelExecutor requests,
			ThreadModelExecutor followingTasks, AutoThreadModelPolicy.Thresholds thresholds, Duration window,
			Clock clock, String resumeHint) {
		this.switcher = switcher;
		this.requests = requests;
		this.switched = (followingTasks != null) ? List.of(requests, followingTasks) : List.of(requests);
		this.window = window;
		this.clock = clock;
		this.policy = new AutoThreadModelPolicy(thresholds);
		this.resumeHint = resumeHint;
		requests.onSwitch(this::switched);
		switcher.onResumeAuto(this::resume);
	}

	@Override
	public synchronized void start() {
		if (this.scheduler != null) {
			return;
		}
		this.sampler = new WorkloadSampler(this.requests, this.switched, this.probe,
				Runtime.getRuntime().availableProcessors(), System.nanoTime());
		ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread thread = new Thread(task, "threadmodel-auto");
			thread.setDaemon(true);
			return thread;
		});
		long windowNanos = this.window.toNanos();
		long tickNanos = windowNanos / PROBES_PER_WINDOW;
		this.lastTickNanos = System.nanoTime();
		scheduler.scheduleWithFixedDelay(() -> probeTick(tickNanos), 0, tickNanos, TimeUnit.NANOSECONDS);
		scheduler.scheduleAtFixedRate(this::sampleAndDecide, windowNanos, windowNanos, TimeUnit.NANOSECONDS);
		this.scheduler = scheduler;
		logger.info("Thread model auto: starting on %s threads, sampling every %s".formatted(
				this.requests.getModel().id(), this.window));
	}

	/**
	 * Stops sampling, and waits (briefly) for a window being decided, so that no switch
	 * happens while the server shuts down.
	 */
	@Override
	public void stop() {
		ScheduledExecutorService scheduler;
		synchronized (this) {
			scheduler = this.scheduler;
			this.scheduler = null;
		}
		if (scheduler == null) {
			return;
		}
		scheduler.shutdown();
		try {
			scheduler.awaitTermination(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@Override
	public boolean isRunning() {
		return this.scheduler != null;
	}

	/**
	 * Takes the decisions again after a manual switch paused them. The minimum dwell
	 * counts from the manual switch.
	 */
	public synchronized void resume() {
		if (this.pausedBy != null) {
			logger.info("Thread model auto: resumed on %s threads".formatted(this.requests.getModel().id()));
			this.pausedBy = null;
		}
	}

	/**
	 * What auto is doing: whether it decides, the figures of the last window and the
	 * reason of the last decision, and the last switches it made.
	 * @return the status
	 */
	public Status status() {
		synchronized (this.decisions) {
			return new Status(this.pausedBy == null, this.pausedBy, this.lastSample, this.lastReason,
					List.copyOf(this.decisions));
		}
	}

	private void sampleAndDecide() {
		try {
			WorkloadSample sample;
			AutoThreadModelPolicy.Decision decision;
			Instant now = this.clock.instant();
			synchronized (this) {
				sample = this.sampler.sample(System.nanoTime());
				this.lastSample = sample;
				if (this.pausedBy != null) {
					this.lastReason = "paused: the model was switched by " + this.pausedBy;
					return;
				}
				decision = this.policy.decide(sample, now);
				this.lastReason = decision.reason();
			}
			if (decision.isSwitch()) {
				apply(sample, decision, now);
			}
		}
		catch (RuntimeException ex) {
			// a failed window must not end the schedule; the next one tries again
			logger.warn("Thread model auto: sampling or switching failed", ex);
		}
	}

	/**
	 * Every tenth of a window: switches at once when the probe still waiting for a carrier
	 * has waited long (see {@link AutoThreadModelPolicy#decideStarving}), then launches the
	 * next probe. A tick that comes late (two periods or more after the previous one) means
	 * this platform thread was held too, by a garbage-collection pause or a host short of
	 * CPU, so the probe's wait is not the carriers' doing: that tick only launches.
	 */
	private void probeTick(long tickNanos) {
		long nanos = System.nanoTime();
		boolean onTime = nanos - this.lastTickNanos < 2 * tickNanos;
		this.lastTickNanos = nanos;
		try {
			Duration waiting = this.probe.waiting(nanos);
			if (onTime && !waiting.isZero()) {
				decideStarving(waiting, nanos);
			}
		}
		catch (RuntimeException ex) {
			logger.warn("Thread model auto: switching failed", ex);
		}
		finally {
			this.probe.launch();
		}
	}

	private void decideStarving(Duration waiting, long nanos) {
		WorkloadSample sample;
		AutoThreadModelPolicy.Decision decision;
		Instant now = this.clock.instant();
		synchronized (this) {
			if (this.pausedBy != null) {
				return;
			}
			decision = this.policy.decideStarving(this.requests.getModel(), waiting, now);
			if (!decision.isSwitch()) {
				return;
			}
			// the switch ends the window early: its figures are the decision's
			sample = this.sampler.sample(nanos);
			this.lastSample = sample;
			this.lastReason = decision.reason();
		}
		apply(sample, decision, now);
	}

	private void apply(WorkloadSample sample, AutoThreadModelPolicy.Decision decision, Instant now) {
		if (this.pausedBy != null) {
			return; // switched by hand since the window ended
		}
		ThreadModel from = sample.model();
		this.switcher.apply(SwitchRequest.to(ThreadModelChoice.of(decision.switchTo()), SwitchSource.AUTO,
				"auto: " + decision.reason()));
		logger.info("Thread model auto: switched from %s to %s threads: %s".formatted(from.id(),
				decision.switchTo().id(), decision.reason()));
		synchronized (this.decisions) {
			if (this.decisions.size() == DECISIONS_KEPT) {
				this.decisions.removeLast();
			}
			this.decisions.addFirst(new AutoDecision(now, from, decision.switchTo(), decision.reason(), sample));
		}
	}

	/**
	 * Pauses on a switch made by anyone else.
	 */
	private void switched(ModelSwitch change) {
		if (change.source() == SwitchSource.AUTO) {
			return;
		}
		synchronized (this) {
			this.pausedBy = change.requestedBy();
			this.policy.restart(this.clock.instant());
		}
		logger.info("Thread model auto: paused, %s switched to %s threads; %s".formatted(change.requestedBy(),
				change.to().id(), this.resumeHint));
	}

	/**
	 * What auto is doing.
	 *
	 * @param active whether it takes decisions (not paused)
	 * @param pausedBy who switched the model by hand and paused it, or {@code null}
	 * @param lastSample the figures of the last window, or {@code null} before the first
	 * @param lastReason the reason of the last decision, to switch or to stay
	 * @param decisions the last switches it made, newest first
	 */
	public record Status(boolean active, String pausedBy, WorkloadSample lastSample, String lastReason,
			List<AutoDecision> decisions) {

	}

	/**
	 * A switch auto made.
	 *
	 * @param at when
	 * @param from the model before
	 * @param to the model after
	 * @param reason why, with the figures
	 * @param sample the figures of the window that completed the decision
	 */
	public record AutoDecision(Instant at, ThreadModel from, ThreadModel to, String reason, WorkloadSample sample) {

	}

}
