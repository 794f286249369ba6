package io.github.threadmodel.autoconfigure;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

import io.github.threadmodel.executor.ModelSwitch;
import io.github.threadmodel.executor.SwitchOutcome;
import io.github.threadmodel.executor.SwitchOutcome.Refused;
import io.github.threadmodel.executor.SwitchOutcome.Switched;
import io.github.threadmodel.executor.ThreadModelChoice;
import io.github.threadmodel.executor.ThreadModelExecutor;
import io.github.threadmodel.executor.ThreadModelSwitcher;
import io.github.threadmodel.internal.auto.AutoThreadModel;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.cloud.context.environment.EnvironmentChangeEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;
import org.springframework.lang.Nullable;

/**
 * Switching by configuration: applies a change of {@code app.threads.model},
 * {@code app.threads.platform.max-threads} or {@code app.threads.virtual.max-concurrency},
 * and of a lane's ({@link LaneConfigurationSwitches})
 * made while the application runs, as spring-cloud-context announces it with an
 * {@link EnvironmentChangeEvent} ({@code POST /actuator/env}, {@code /actuator/refresh},
 * a Config Server refresh, Spring Cloud Bus, a Kubernetes ConfigMap reload). The switch
 * goes through the {@link ThreadModelSwitcher}, as a {@code POST /actuator/threadmodel}
 * does, and is recorded with the source {@code configuration}.
 * <p>
 * Each value in force is the one set last: a change applies the values that changed in
 * the configuration, and a {@code POST} overrides them until the configuration changes
 * them again.
 * <p>
 * The new values are bound from the {@link Environment} here and read as at startup, by
 * {@link ThreadModelSettings}, which checks them whole before anything switches, rather
 * than read from the {@link ThreadModelProperties} bean, which nothing reads after startup
 * and Spring Cloud's {@code ConfigurationPropertiesRebinder} leaves alone
 * ({@link ThreadModelConfigurationSwitchAutoConfiguration}). When the application writes
 * the rebinder's {@code spring.cloud.refresh.never-refreshable} itself, the rebinder binds
 * the bean again on the same event, without those checks; this listener comes first, so
 * that its WARN is written even when the rebinder then fails on a value it cannot bind.
 */
final class ConfigurationSwitchListener implements ApplicationListener<EnvironmentChangeEvent>, Ordered {

	private static final Log logger = LogFactory.getLog(ConfigurationSwitchListener.class);

	private static final String MAX_THREADS_PROPERTY = "app.threads.platform.max-threads";

	private static final String MAX_CONCURRENCY_PROPERTY = "app.threads.virtual.max-concurrency";

	private static final String PREFIX = "app.threads";

	private static final ConfigurationPropertyName PREFIX_NAME = ConfigurationPropertyName.of(PREFIX);

	/**
	 * What a running application applies; every other {@code app.threads.*} property is
	 * read at startup only.
	 */
	private static final Set<ConfigurationPropertyName> SWITCHABLE = Set.of(
			ConfigurationPropertyName.of(ThreadModelSettings.MODEL_PROPERTY),
			ConfigurationPropertyName.of(MAX_THREADS_PROPERTY), ConfigurationPropertyName.of(MAX_CONCURRENCY_PROPERTY));

	private final Environment environment;

	private final ThreadModelSwitcher switcher;

	private final ThreadModelExecutor requests;

	private final AutoThreadModel auto;

	private final LaneConfigurationSwitches lanes;

	/**
	 * The switchable values as the configuration had them when last applied: at startup,
	 * or at the last change this listener applied.
	 */
	private SwitchableValues applied;

	/**
	 * Creates the listener.
	 * @param settings the values the application started with, as read at startup
	 * @param environment the environment the new values are read from
	 * @param switcher switches the model
	 * @param requests the request executor
	 * @param auto {@code app.threads.model=auto}, or {@code null} without it
	 */
	ConfigurationSwitchListener(ThreadModelSettings settings, Environment environment, ThreadModelSwitcher switcher,
			ThreadModelExecutor requests, @Nullable AutoThreadModel auto) {
		this.environment = environment;
		this.switcher = switcher;
		this.requests = requests;
		this.auto = auto;
		this.applied = SwitchableValues.server(settings);
		this.lanes = new LaneConfigurationSwitches(settings, switcher);
	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

	@Override
	public void onApplicationEvent(EnvironmentChangeEvent event) {
		List<String> keys = event.getKeys()
			.stream()
			.filter((key) -> PREFIX_NAME.isAncestorOf(ConfigurationPropertyName.adapt(key, '.')))
			.sorted()
			.toList();
		if (!keys.isEmpty()) {
			apply(keys);
		}
	}

	private synchronized void apply(List<String> keys) {
		ThreadModelSettings settings;
		try {
			settings = read();
		}
		catch (InvalidConfigurationPropertyValueException ex) {
			refused(ex.getMessage());
			return;
		}
		catch (BindException ex) {
			refused(unreadable(ex));
			return;
		}
		warnStartupOnly(keys);
		this.lanes.apply(settings);
		SwitchableValues next = SwitchableValues.server(settings).keepingRemovedLimit(this.applied, "Thread model",
				logger);
		List<String> changes = next.changesFrom(this.applied);
		if (changes.isEmpty()) {
			return;
		}
		String asked = String.join(", ", changes);
		boolean underAuto = next.model() == ThreadModelChoice.AUTO;
		boolean autoChosen = underAuto && this.applied.model() != ThreadModelChoice.AUTO;
		// new limits pause auto, as any switch not its own: asking for auto resumes it after them,
		// when it decided before (a switch by hand that paused it keeps it paused)
		boolean autoDecides = underAuto && (autoChosen || (this.auto != null && this.auto.status().active()));
		ThreadModelChoice model = autoDecides ? ThreadModelChoice.AUTO : next.modelIfChangedFrom(this.applied);
		SwitchOutcome outcome = this.switcher.apply(next.switchFrom(this.applied, model, null));
		if (outcome instanceof Refused refused) {
			stays(refused, asked);
			return;
		}
		if (underAuto) {
			String what = autoChosen ? "resumed"
					: autoDecides ? "decides, with new limits," : "stays paused, with new limits";
			logger.info("Thread model auto %s by configuration (%s), on %s threads".formatted(what, asked,
					this.requests.getModel().id()));
		}
		else {
			switched(outcome, asked);
		}
		this.applied = next;
	}

	private static void warnStartupOnly(List<String> keys) {
		List<String> startupOnly = keys.stream()
			.filter((key) -> !SWITCHABLE.contains(ConfigurationPropertyName.adapt(key, '.'))
					&& !LaneConfigurationSwitches.SWITCHABLE.matcher(key).matches())
			.toList();
		if (!startupOnly.isEmpty()) {
			logger.warn("Thread model: %s changed while the application runs, but %s read at startup only; "
				.formatted(String.join(", ", startupOnly), (startupOnly.size() == 1) ? "is" : "are")
					+ "a running application applies "
					+ String.join(", ", ThreadModelSettings.MODEL_PROPERTY, MAX_THREADS_PROPERTY,
							MAX_CONCURRENCY_PROPERTY)
					+ " and each lane's model, platform.max-threads and virtual.max-concurrency");
		}
	}

	private void stays(Refused refused, String asked) {
		String why = switch (refused.reason()) {
			case DISABLED -> "switching is disabled by app.threads.switching.enabled=false";
			case NO_AUTO -> "auto runs only when the application started with app.threads.model=auto; restart with "
					+ "it, or choose platform or virtual";
			case INVALID_LIMIT, INVALID_LANE -> refused.message();
		};
		logger.warn("Thread model stays %s: the configuration changed (%s), but %s".formatted(
				this.requests.getModel().id(), asked, why));
	}

	private void switched(SwitchOutcome outcome, String asked) {
		if (!(outcome instanceof Switched switched)) {
			logger.info("Thread model stays %s: the configuration changed (%s) to what is in force already"
				.formatted(this.requests.getModel().id(), asked));
			return;
		}
		ModelSwitch change = switched.change();
		String handedOver = (change.handedOver() > 0) ? ", %d waiting request%s handed over"
			.formatted(change.handedOver(), (change.handedOver() == 1) ? "" : "s") : "";
		String models = (change.from() == change.to()) ? change.to().id() + " threads with new limits"
				: change.from().id() + " to " + change.to().id() + " threads";
		logger.info("Thread model switched by configuration (%s): %s%s".formatted(asked, models, handedOver));
	}

	private void refused(String reason) {
		logger.warn("Thread model stays %s: configuration change refused: %s".formatted(this.requests.getModel().id(),
				reason));
	}

	/**
	 * Binds every {@code app.threads.*} value and reads them as at startup
	 * ({@link ThreadModelSettings}, which checks them).
	 */
	private ThreadModelSettings read() {
		return new ThreadModelSettings(Binder.get(this.environment).bindOrCreate(PREFIX, ThreadModelProperties.class),
				this.environment);
	}

	/**
	 * What a value that cannot be bound at all should be. Written here because Spring
	 * Boot's analysis of a {@link BindException} is a failure analyzer, which only runs
	 * when startup fails.
	 */
	private static String unreadable(BindException ex) {
		InvalidConfigurationPropertyValueException model = ThreadModelPropertiesCheck.invalidModel(ex);
		if (model != null) {
			return model.getMessage();
		}
		ConfigurationProperty property = ex.getProperty();
		Object value = (property != null) ? property.getValue() : null;
		Class<?> type = ex.getTarget().getType().resolve(Object.class);
		String allowed;
		if (type == int.class || type == Integer.class) {
			allowed = "a whole number";
		}
		else if (type == double.class || type == Double.class) {
			allowed = "a number";
		}
		else if (type == boolean.class || type == Boolean.class) {
			allowed = "true or false";
		}
		else if (type == Duration.class) {
			allowed = "a duration, for example 200ms";
		}
		else if (type.isEnum()) {
			allowed = Arrays.stream(type.getEnumConstants())
				.map((constant) -> ((Enum<?>) constant).name().toLowerCase(Locale.ROOT))
				.collect(Collectors.joining(", "));
		}
		else {
			allowed = "a " + type.getSimpleName();
		}
		return "Property %s with value '%s' is invalid: Allowed: %s.".formatted(ex.getName(), value, allowed);
	}

}
