package io.github.threadmodel.autoconfigure;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

import io.github.threadmodel.executor.ExecutorSettings;
import io.github.threadmodel.executor.ExecutorSettings.FixedAdmission;
import io.github.threadmodel.executor.SwitchOutcome;
import io.github.threadmodel.executor.SwitchOutcome.Refused;
import io.github.threadmodel.executor.SwitchOutcome.Switched;
import io.github.threadmodel.executor.SwitchRequest;
import io.github.threadmodel.executor.SwitchSource;
import io.github.threadmodel.executor.ThreadModel;
import io.github.threadmodel.executor.ThreadModelChoice;
import io.github.threadmodel.executor.ThreadModelSwitcher;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * The lanes' part of switching by configuration ({@link ConfigurationSwitchListener}): a
 * change of {@code app.threads.lanes.<name>.model}, {@code .platform.max-threads} or
 * {@code .virtual.max-concurrency} switches that lane, through the same
 * {@link ThreadModelSwitcher} as the server's switches. The values compared are the ones
 * in force (a limit a lane does not set is the server's); lanes are made at startup only.
 */
final class LaneConfigurationSwitches {

	private static final Log logger = LogFactory.getLog(ConfigurationSwitchListener.class);

	/** The lane properties a running application applies. */
	static final Pattern SWITCHABLE = Pattern
		.compile("app\\.threads\\.lanes\\.[^.]+\\.(model|platform\\.max-threads|virtual\\.max-concurrency)");

	private final ThreadModelSwitcher switcher;

	/** Each lane's values as last applied: at startup, or at the last change applied. */
	private final Map<String, Configured> applied;

	LaneConfigurationSwitches(ThreadModelSettings settings, ThreadModelSwitcher switcher) {
		this.switcher = switcher;
		this.applied = configured(settings);
	}

	/**
	 * Switches each lane whose values changed.
	 * @param settings the configuration as it is now, checked
	 */
	void apply(ThreadModelSettings settings) {
		Map<String, Configured> next = configured(settings);
		if (!next.keySet().equals(this.applied.keySet())) {
			logger.warn("Thread model: the lanes configured changed to %s while the application runs, but lanes are "
				.formatted(next.keySet()) + "made at startup only (running: %s)".formatted(this.applied.keySet()));
		}
		this.applied.replaceAll((name, before) -> {
			Configured after = next.get(name);
			return (after == null || after.equals(before)) ? before : apply(name, before, after);
		});
	}

	private Configured apply(String name, Configured before, Configured after) {
		String prefix = "app.threads.lanes." + name + ".";
		List<String> changes = new ArrayList<>();
		ThreadModel model = (after.model() != before.model()) ? after.model() : null;
		if (model != null) {
			changes.add(prefix + "model=" + model.id());
		}
		Integer maxThreads = (after.maxThreads() != before.maxThreads()) ? after.maxThreads() : null;
		if (maxThreads != null) {
			changes.add(prefix + "platform.max-threads=" + maxThreads);
		}
		Integer maxConcurrency = Objects.equals(after.maxConcurrency(), before.maxConcurrency()) ? null
				: after.maxConcurrency();
		if (maxConcurrency != null) {
			changes.add(prefix + "virtual.max-concurrency=" + maxConcurrency);
		}
		else if (after.maxConcurrency() == null && before.maxConcurrency() != null) {
			logger.warn(("Lane %s keeps the fixed limit %d: %svirtual.max-concurrency was removed, but a running "
					+ "application cannot go back to an adaptive or no limit; that takes a restart")
				.formatted(name, before.maxConcurrency(), prefix));
			after = new Configured(after.model(), after.maxThreads(), before.maxConcurrency());
		}
		if (changes.isEmpty()) {
			return after;
		}
		String asked = String.join(", ", changes);
		ThreadModelChoice choice = (model != null) ? ThreadModelChoice.of(model) : null;
		SwitchOutcome outcome = this.switcher.apply(new SwitchRequest(choice, maxThreads, maxConcurrency,
				SwitchSource.CONFIGURATION, "configuration: " + asked, name));
		if (outcome instanceof Refused refused) {
			logger.warn("Lane %s stays as it was: the configuration changed (%s), but %s".formatted(name, asked,
					refused.message()));
			return before;
		}
		logger.info("Lane %s switched by configuration (%s)%s".formatted(name, asked,
				(outcome instanceof Switched) ? "" : ": in force already"));
		return after;
	}

	private static Map<String, Configured> configured(ThreadModelSettings settings) {
		Map<String, Configured> lanes = new LinkedHashMap<>();
		settings.lanes().forEach((name, lane) -> {
			ExecutorSettings executor = settings.laneExecutor(lane);
			lanes.put(name, new Configured(executor.model(), executor.platform().maxThreads(),
					(executor.admission() instanceof FixedAdmission fixed) ? fixed.maxConcurrency() : null));
		});
		return lanes;
	}

	/**
	 * A lane's switchable values in force.
	 *
	 * @param model its model
	 * @param maxThreads its platform threads
	 * @param maxConcurrency its fixed virtual limit, or {@code null} for none
	 */
	record Configured(ThreadModel model, int maxThreads, Integer maxConcurrency) {

	}

}
