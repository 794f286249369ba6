package io.github.threadmodel.autoconfigure;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import io.github.threadmodel.executor.ExecutorSettings;
import io.github.threadmodel.executor.SwitchRequest;
import io.github.threadmodel.executor.SwitchSource;
import io.github.threadmodel.executor.ThreadModelChoice;
import org.apache.commons.logging.Log;

/**
 * The values of the server or of a lane that a running application applies from its
 * configuration ({@link ConfigurationSwitchListener}, {@link LaneConfigurationSwitches}),
 * under a property prefix: {@code <prefix>model}, {@code <prefix>platform.max-threads},
 * {@code <prefix>virtual.max-concurrency}, where the prefix is {@code app.threads.} for the
 * server and {@code app.threads.lanes.<name>.} for a lane.
 *
 * @param prefix the prefix of their properties
 * @param model the model chosen
 * @param maxThreads the platform threads
 * @param maxConcurrency the fixed virtual limit, or {@code null} for none
 */
record SwitchableValues(String prefix, ThreadModelChoice model, int maxThreads, Integer maxConcurrency) {

	/** The server's prefix. */
	static final String SERVER = "app.threads.";

	/**
	 * The server's values, as {@link ThreadModelSettings} reads them.
	 */
	static SwitchableValues server(ThreadModelSettings settings) {
		return new SwitchableValues(SERVER, settings.serverChoice(), settings.maxThreads(), settings.maxConcurrency());
	}

	/**
	 * A lane's values in force (a limit the lane does not set is the server's).
	 */
	static SwitchableValues lane(String name, ExecutorSettings executor) {
		return new SwitchableValues(SERVER + "lanes." + name + ".", ThreadModelChoice.of(executor.model()),
				executor.platform().maxThreads(), executor.maxConcurrency());
	}

	/**
	 * These values, or, when they no longer set the fixed limit in force before, with that
	 * limit kept and a WARN that says so: a switch sets a fixed limit, it cannot take one
	 * away.
	 * @param before the values in force
	 * @param who the subject of the WARN ({@code Thread model}, {@code Lane cpu})
	 * @param logger where the WARN goes
	 */
	SwitchableValues keepingRemovedLimit(SwitchableValues before, String who, Log logger) {
		if (this.maxConcurrency != null || before.maxConcurrency == null) {
			return this;
		}
		logger.warn(("%s keeps the fixed limit %s=%d: the property was removed, but a running application cannot go "
				+ "back to an adaptive or no limit; that takes a restart")
			.formatted(who, this.prefix + "virtual.max-concurrency", before.maxConcurrency));
		return new SwitchableValues(this.prefix, this.model, this.maxThreads, before.maxConcurrency);
	}

	ThreadModelChoice modelIfChangedFrom(SwitchableValues before) {
		return (this.model != before.model) ? this.model : null;
	}

	Integer maxThreadsIfChangedFrom(SwitchableValues before) {
		return (this.maxThreads != before.maxThreads) ? this.maxThreads : null;
	}

	Integer maxConcurrencyIfChangedFrom(SwitchableValues before) {
		return Objects.equals(this.maxConcurrency, before.maxConcurrency) ? null : this.maxConcurrency;
	}

	/**
	 * The values that differ from the ones before, as {@code property=value}.
	 */
	List<String> changesFrom(SwitchableValues before) {
		List<String> changes = new ArrayList<>();
		if (modelIfChangedFrom(before) != null) {
			changes.add(this.prefix + "model=" + this.model.id());
		}
		if (maxThreadsIfChangedFrom(before) != null) {
			changes.add(this.prefix + "platform.max-threads=" + this.maxThreads);
		}
		if (maxConcurrencyIfChangedFrom(before) != null) {
			changes.add(this.prefix + "virtual.max-concurrency=" + this.maxConcurrency);
		}
		return changes;
	}

	/**
	 * The switch of what changed from the values before, recorded as the configuration's.
	 * @param before the values in force
	 * @param model the model to ask for, or {@code null} to keep it
	 * @param lane the lane's name, or {@code null} for the server
	 */
	SwitchRequest switchFrom(SwitchableValues before, ThreadModelChoice model, String lane) {
		return new SwitchRequest(model, maxThreadsIfChangedFrom(before), maxConcurrencyIfChangedFrom(before),
				SwitchSource.CONFIGURATION, "configuration: " + String.join(", ", changesFrom(before)), lane);
	}

}
