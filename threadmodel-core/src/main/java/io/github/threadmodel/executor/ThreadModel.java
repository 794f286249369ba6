package io.github.threadmodel.executor;

import java.util.Locale;

/**
 * The kind of threads that run request handling or application tasks.
 * @since 0.1.0
 */
public enum ThreadModel {

	/**
	 * A bounded pool of platform (OS) threads.
	 */
	PLATFORM,

	/**
	 * One virtual thread per task.
	 */
	VIRTUAL;

	/**
	 * The name used in properties, JSON and metric tags: {@code platform} or {@code virtual}.
	 * @return the lower-case name
	 */
	public String id() {
		return name().toLowerCase(Locale.ROOT);
	}

}
