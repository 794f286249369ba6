package io.github.threadmodel.executor;

import java.util.Arrays;
import java.util.Locale;

/**
 * Who or what asked for a switch of the thread model, as the start of its
 * {@link ModelSwitch#requestedBy() requestedBy} says. Read from that text rather than
 * passed apart, so that every caller of {@link ThreadModelSwitcher} keeps the one
 * argument it has always given.
 * @since 0.1.0
 */
public enum SwitchSource {

	/**
	 * {@code POST /actuator/threadmodel}: {@code actuator}, or {@code actuator (user)}
	 * when Spring Security knows who asked.
	 */
	ENDPOINT("actuator"),

	/**
	 * A change of the application's configuration (for example spring-cloud-context's
	 * refresh): {@code configuration: app.threads.model=virtual}.
	 */
	CONFIGURATION("configuration: "),

	/**
	 * A decision of {@code app.threads.model=auto}: {@code auto: <reason>}.
	 */
	AUTO("auto: "),

	/**
	 * Anything else: the application's own code calling {@link ThreadModelSwitcher}.
	 */
	APPLICATION("");

	private final String prefix;

	SwitchSource(String prefix) {
		this.prefix = prefix;
	}

	/**
	 * How the {@code requestedBy} of a switch from this source starts.
	 * @return the start
	 */
	public String prefix() {
		return this.prefix;
	}

	/**
	 * The name the actuator endpoint shows: {@code endpoint}, {@code configuration},
	 * {@code auto} or {@code application}.
	 * @return the lower-case name
	 */
	public String id() {
		return name().toLowerCase(Locale.ROOT);
	}

	/**
	 * The source of a switch.
	 * @param requestedBy who or what asked for it
	 * @return the source whose prefix it starts with
	 */
	public static SwitchSource of(String requestedBy) {
		// APPLICATION, last, has the empty prefix: every text has a source
		return Arrays.stream(values()).filter((source) -> requestedBy.startsWith(source.prefix)).findFirst().orElseThrow();
	}

}
