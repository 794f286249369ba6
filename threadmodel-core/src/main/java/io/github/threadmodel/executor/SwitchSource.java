package io.github.threadmodel.executor;

import java.util.Locale;

/**
 * Who or what asked for a switch of the thread model: given with each
 * {@link SwitchRequest}, kept in each {@link ModelSwitch}.
 * @since 0.1.0
 */
public enum SwitchSource {

	/**
	 * {@code POST /actuator/threadmodel}.
	 */
	ENDPOINT,

	/**
	 * A change of the application's configuration (for example spring-cloud-context's
	 * refresh).
	 */
	CONFIGURATION,

	/**
	 * A decision of {@code app.threads.model=auto}.
	 */
	AUTO,

	/**
	 * The application's own code calling {@link ThreadModelSwitcher}.
	 */
	APPLICATION;

	/**
	 * The name the actuator endpoint shows: {@code endpoint}, {@code configuration},
	 * {@code auto} or {@code application}.
	 * @return the lower-case name
	 */
	public String id() {
		return name().toLowerCase(Locale.ROOT);
	}

}
