package io.github.threadmodel.autoconfigure;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import io.github.threadmodel.executor.SwitchOutcome;
import io.github.threadmodel.executor.SwitchOutcome.Refused;
import io.github.threadmodel.executor.SwitchOutcome.Switched;
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
	private final Map<String, SwitchableValues> applied;

	LaneConfigurationSwitches(ThreadModelSettings settings, ThreadModelSwitcher switcher) {
		this.switcher = switcher;
		this.applied = configured(settings);
	}

	/**
	 * Switches each lane whose values changed.
	 * @param settings the configuration as it is now, checked
	 */
	void apply(ThreadModelSettings settings) {
		Map<String, SwitchableValues> next = configured(settings);
		if (!next.keySet().equals(this.applied.keySet())) {
			logger.warn("Thread model: the lanes configured changed to %s while the application runs, but lanes are "
				.formatted(next.keySet()) + "made at startup only (running: %s)".formatted(this.applied.keySet()));
		}
		this.applied.replaceAll((name, before) -> {
			SwitchableValues after = next.get(name);
			return (after == null || after.equals(before)) ? before : apply(name, before, after);
		});
	}

	private SwitchableValues apply(String name, SwitchableValues before, SwitchableValues changed) {
		SwitchableValues after = changed.keepingRemovedLimit(before, "Lane " + name, logger);
		List<String> changes = after.changesFrom(before);
		if (changes.isEmpty()) {
			return after;
		}
		String asked = String.join(", ", changes);
		SwitchOutcome outcome = this.switcher.apply(after.switchFrom(before, after.modelIfChangedFrom(before), name));
		if (outcome instanceof Refused refused) {
			logger.warn("Lane %s stays as it was: the configuration changed (%s), but %s".formatted(name, asked,
					refused.message()));
			return before;
		}
		logger.info("Lane %s switched by configuration (%s)%s".formatted(name, asked,
				(outcome instanceof Switched) ? "" : ": in force already"));
		return after;
	}

	private static Map<String, SwitchableValues> configured(ThreadModelSettings settings) {
		Map<String, SwitchableValues> lanes = new LinkedHashMap<>();
		settings.lanes()
			.forEach((name, lane) -> lanes.put(name, SwitchableValues.lane(name, settings.laneExecutor(lane))));
		return lanes;
	}

}
