package io.github.threadmodel.autoconfigure;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

import io.github.threadmodel.internal.overload.Shedding;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.SmartLifecycle;

/**
 * Samples {@link Shedding} once a second while the application runs and, when asked to
 * ({@code app.threads.readiness.refuse-when-shedding}), publishes Spring Boot's
 * {@link AvailabilityChangeEvent}: {@link ReadinessState#REFUSING_TRAFFIC} after sustained
 * shedding, {@link ReadinessState#ACCEPTING_TRAFFIC} again once calm, and only over a
 * refusal of its own (the readiness that graceful shutdown sets stays). The samples run on
 * the JDK's shared delay scheduler, not on a thread of the starter's.
 */
final class SheddingReadiness implements SmartLifecycle {

	private static final Log logger = LogFactory.getLog(SheddingReadiness.class);

	private static final Executor everySecond = CompletableFuture.delayedExecutor(1, TimeUnit.SECONDS);

	private final Shedding shedding;

	private final boolean publish;

	private final ApplicationEventPublisher events;

	private final ApplicationAvailability availability;

	private volatile boolean running;

	/**
	 * Creates the sampler.
	 * @param shedding what it samples
	 * @param publish whether to change readiness
	 * @param events where to publish readiness changes
	 * @param availability the readiness in force
	 */
	public SheddingReadiness(Shedding shedding, boolean publish, ApplicationEventPublisher events,
			ApplicationAvailability availability) {
		this.shedding = shedding;
		this.publish = publish;
		this.events = events;
		this.availability = availability;
	}

	@Override
	public void start() {
		this.running = true;
		everySecond.execute(this::sample);
	}

	private void sample() {
		if (!this.running) {
			return;
		}
		try {
			ReadinessState readiness = this.shedding.sample();
			if (readiness != null && this.publish) {
				change(readiness);
			}
		}
		finally {
			everySecond.execute(this::sample);
		}
	}

	private void change(ReadinessState readiness) {
		if (readiness == ReadinessState.REFUSING_TRAFFIC) {
			logger.warn("Readiness set to REFUSING_TRAFFIC: the server has answered requests 503 for "
					+ this.shedding.refuseAfter().toSeconds() + " s (app.threads.readiness.refuse-when-shedding)");
		}
		else if (this.availability.getReadinessState() != ReadinessState.REFUSING_TRAFFIC) {
			return;
		}
		else {
			logger.info("Readiness set to ACCEPTING_TRAFFIC: the server no longer answers requests 503");
		}
		AvailabilityChangeEvent.publish(this.events, this, readiness);
	}

	@Override
	public void stop() {
		this.running = false;
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

}
