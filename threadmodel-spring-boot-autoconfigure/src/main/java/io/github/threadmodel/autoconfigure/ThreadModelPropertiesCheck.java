package io.github.threadmodel.autoconfigure;

import java.time.Duration;
import java.util.Locale;

import io.github.threadmodel.executor.ThreadModelChoice;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.core.env.Environment;

/**
 * Checks the {@code app.threads.*} values before anything is made from them. A value no
 * executor can run with stops startup with Spring Boot's
 * {@link InvalidConfigurationPropertyValueException}, whose failure analysis names the
 * property, the value, where the value came from and what is allowed.
 */
final class ThreadModelPropertiesCheck {

	/**
	 * The longest duration any setting takes: the executors, JFR and the schedulers count
	 * time in nanoseconds in a {@code long}, which holds a little over 106751 days.
	 */
	static final Duration LONGEST = Duration.ofDays(106751);

	private static final String TASK_MODEL_PROPERTY = "app.threads.tasks.model";

	private static final String MODEL_ALLOWED = "platform, virtual or auto; leave the property out for the default";

	private static final String LANE_MODEL_ALLOWED = "platform or virtual";

	private static final String TASK_MODEL_ALLOWED = "platform or virtual; leave the property out to follow the "
			+ "server's model";

	// the settings' logger, under which these warnings have always been logged
	private static final Log logger = LogFactory.getLog(ThreadModelSettings.class);

	private ThreadModelPropertiesCheck() {
	}

	/**
	 * Checks every value.
	 * @param properties the bound properties
	 * @throws InvalidConfigurationPropertyValueException for the first value that is not allowed
	 */
	static void check(ThreadModelProperties properties) {
		if (properties.getTasks().getModel() == ThreadModelChoice.AUTO) {
			throw invalid(TASK_MODEL_PROPERTY, ThreadModelChoice.AUTO.id(), TASK_MODEL_ALLOWED);
		}
		checkTasks(properties.getTasks());
		checkPlatform(properties.getPlatform());
		checkVirtual(properties.getVirtual());
		checkDuration("app.threads.overload.retry-after", properties.getOverload().getRetryAfter(), Duration.ZERO,
				"a duration of zero or more, for example 1s");
		checkAtLeast("app.threads.connections.accept-backlog", properties.getConnections().getAcceptBacklog(), 1);
		checkDuration("app.threads.pinning.threshold", properties.getPinning().getThreshold(), Duration.ZERO,
				"a duration of zero or more, for example 20ms");
		checkAuto(properties.getAuto());
		properties.getLanes().forEach(ThreadModelPropertiesCheck::checkLane);
		checkDuration("app.threads.readiness.shedding-for", properties.getReadiness().getSheddingFor(),
				Duration.ofSeconds(1), "a duration of 1s or more, for example 10s");
		checkDuration("app.threads.readiness.accept-after", properties.getReadiness().getAcceptAfter(),
				Duration.ofSeconds(1), "a duration of 1s or more, for example 30s");
		if (properties.getModel() == ThreadModelChoice.AUTO && !properties.getSwitching().isEnabled()) {
			throw invalid("app.threads.switching.enabled", false,
					"true when app.threads.model is auto, which switches the model while the application runs");
		}
	}

	/**
	 * Refuses an empty {@code app.threads.model}: Spring Boot binds an empty value to no
	 * value, but a user who wrote the property meant one.
	 * @param environment the environment the property is read from
	 */
	static void checkWrittenModel(Environment environment) {
		String written = Binder.get(environment).bind(ThreadModelSettings.MODEL_PROPERTY, String.class).orElse(null);
		if (written != null && written.isBlank()) {
			throw invalid(ThreadModelSettings.MODEL_PROPERTY, "", MODEL_ALLOWED);
		}
	}

	/**
	 * A model property Spring Boot could not bind, explained as any other invalid value:
	 * Spring Boot's own analysis of a {@link BindException} lists an enum's constants in
	 * upper case, where the documentation writes them in lower case.
	 * @param ex the failure to bind
	 * @return the explanation, or {@code null} when the failure is not a model property's
	 */
	static InvalidConfigurationPropertyValueException invalidModel(BindException ex) {
		String property = ex.getName().toString();
		String allowed = property.equals(ThreadModelSettings.MODEL_PROPERTY) ? MODEL_ALLOWED
				: property.equals(TASK_MODEL_PROPERTY) ? TASK_MODEL_ALLOWED
						: property.matches("app\\.threads\\.lanes\\.[^.]+\\.model") ? LANE_MODEL_ALLOWED : null;
		if (allowed == null || ex.getProperty() == null) {
			return null;
		}
		return invalid(property, ex.getProperty().getValue(), allowed);
	}

	private static void checkTasks(ThreadModelProperties.Tasks tasks) {
		if (tasks.getMaxConcurrency() != null) {
			checkAtLeast("app.threads.tasks.max-concurrency", tasks.getMaxConcurrency(), 1);
		}
		if (tasks.getQueueTimeout() != null) {
			checkDuration("app.threads.tasks.queue-timeout", tasks.getQueueTimeout(), Duration.ZERO,
					"a duration of zero or more, for example 500ms, or no value to wait until a task ends");
		}
	}

	private static void checkPlatform(ThreadModelProperties.Platform platform) {
		checkAtLeast("app.threads.platform.max-threads", platform.getMaxThreads(), 1);
		Integer minThreads = platform.getMinThreads();
		if (minThreads != null && (minThreads < 0 || minThreads > platform.getMaxThreads())) {
			throw invalid("app.threads.platform.min-threads", minThreads,
					"a whole number from 0 to app.threads.platform.max-threads (" + platform.getMaxThreads() + ")");
		}
		if (platform.getQueueCapacity() != null) {
			checkAtLeast("app.threads.platform.queue-capacity", platform.getQueueCapacity(), 0);
		}
		checkDuration("app.threads.platform.keep-alive", platform.getKeepAlive(), Duration.ZERO,
				"a duration of zero or more, for example 60s");
	}

	private static void checkVirtual(ThreadModelProperties.Virtual virtual) {
		if (virtual.getMaxConcurrency() != null) {
			checkAtLeast("app.threads.virtual.max-concurrency", virtual.getMaxConcurrency(), 1);
		}
		VirtualAdmission admission = ThreadModelSettings.admission(virtual);
		if (admission == VirtualAdmission.FIXED && virtual.getMaxConcurrency() == null) {
			throw invalid("app.threads.virtual.admission", "fixed",
					"fixed only with app.threads.virtual.max-concurrency (the fixed limit); adaptive or unlimited "
							+ "without it");
		}
		if (admission != VirtualAdmission.FIXED && virtual.getMaxConcurrency() != null) {
			throw invalid("app.threads.virtual.admission", admission.name().toLowerCase(Locale.ROOT),
					"fixed, or no value, with app.threads.virtual.max-concurrency (a fixed limit); remove "
							+ "max-concurrency for an adaptive or no limit");
		}
		ThreadModelProperties.Adaptive adaptive = virtual.getAdaptive();
		checkAtLeast("app.threads.virtual.adaptive.min-limit", adaptive.getMinLimit(), 1);
		if (adaptive.getMaxLimit() < adaptive.getMinLimit()) {
			throw invalid("app.threads.virtual.adaptive.max-limit", adaptive.getMaxLimit(),
					"a whole number of at least app.threads.virtual.adaptive.min-limit (" + adaptive.getMinLimit()
							+ ")");
		}
		if (!(adaptive.getHeapThreshold() > 0 && adaptive.getHeapThreshold() <= 1)) {
			throw invalid("app.threads.virtual.adaptive.heap-threshold", adaptive.getHeapThreshold(),
					"a number above 0 and at most 1, for example 0.8");
		}
		if (virtual.getQueueTimeout() != null) {
			checkDuration("app.threads.virtual.queue-timeout", virtual.getQueueTimeout(), Duration.ZERO,
					"a duration of zero or more, for example 200ms (30s when unset)");
			if (admission == VirtualAdmission.UNLIMITED) {
				logger.warn("app.threads.virtual.queue-timeout has no effect with "
						+ "app.threads.virtual.admission=unlimited: on virtual threads no request waits for a turn");
			}
		}
	}

	/**
	 * Checks a lane's model and limits; its paths are checked where they are parsed, with
	 * Spring's path patterns (only web applications have them).
	 */
	private static void checkLane(String name, ThreadModelProperties.Lane lane) {
		String prefix = "app.threads.lanes." + name + ".";
		if (lane.getModel() == null || lane.getModel() == ThreadModelChoice.AUTO) {
			throw invalid(prefix + "model", (lane.getModel() != null) ? lane.getModel().id() : "", LANE_MODEL_ALLOWED);
		}
		ThreadModelProperties.LanePlatform platform = lane.getPlatform();
		if (platform.getMaxThreads() != null) {
			checkAtLeast(prefix + "platform.max-threads", platform.getMaxThreads(), 1);
		}
		if (platform.getQueueCapacity() != null) {
			checkAtLeast(prefix + "platform.queue-capacity", platform.getQueueCapacity(), 0);
		}
		ThreadModelProperties.LaneVirtual virtual = lane.getVirtual();
		if (virtual.getMaxConcurrency() != null) {
			checkAtLeast(prefix + "virtual.max-concurrency", virtual.getMaxConcurrency(), 1);
		}
		if (virtual.getQueueTimeout() != null) {
			checkDuration(prefix + "virtual.queue-timeout", virtual.getQueueTimeout(), Duration.ZERO,
					"a duration of zero or more, for example 200ms (the server's when unset)");
		}
	}

	private static void checkAuto(ThreadModelProperties.Auto auto) {
		checkDuration("app.threads.auto.window", auto.getWindow(), Duration.ofMillis(10),
				"a duration of 10ms or more, for example 1s");
		checkAtLeast("app.threads.auto.agreeing-windows", auto.getAgreeingWindows(), 1);
		checkDuration("app.threads.auto.min-dwell", auto.getMinDwell(), Duration.ZERO,
				"a duration of zero or more, for example 15s");
		checkDuration("app.threads.auto.thread-wait", auto.getThreadWait(), Duration.ofNanos(1),
				"a duration above zero, for example 10ms");
		if (!(auto.getCpuBusyShare() > 0 && auto.getCpuBusyShare() <= 1)) {
			throw invalid("app.threads.auto.cpu-busy-share", auto.getCpuBusyShare(),
					"a number above 0 and at most 1, for example 0.5");
		}
		checkDuration("app.threads.auto.scheduling-delay", auto.getSchedulingDelay(), Duration.ofNanos(1),
				"a duration above zero, for example 20ms");
		checkDuration("app.threads.auto.severe-scheduling-delay", auto.getSevereSchedulingDelay(),
				auto.getSchedulingDelay(), "a duration of at least app.threads.auto.scheduling-delay (%dms), "
					.formatted(auto.getSchedulingDelay().toMillis()) + "for example 500ms");
	}

	private static void checkAtLeast(String property, int value, int minimum) {
		if (value < minimum) {
			throw invalid(property, value, "a whole number of " + minimum + " or more");
		}
	}

	private static void checkDuration(String property, Duration value, Duration minimum, String allowed) {
		if (value == null || value.compareTo(minimum) < 0 || value.compareTo(LONGEST) > 0) {
			throw invalid(property, value, allowed + ", at most " + LONGEST.toDays() + "d");
		}
	}

	/**
	 * The failure analysis shows the value as the property source has it; the exception's
	 * own message shows durations as a property would spell them, not as ISO-8601
	 * ({@code PT-1S}).
	 */
	private static InvalidConfigurationPropertyValueException invalid(String property, Object value, String allowed) {
		Object shown = (value instanceof Duration duration) ? duration.toMillis() + "ms" : value;
		return new InvalidConfigurationPropertyValueException(property, shown, "Allowed: " + allowed + ".");
	}

}
