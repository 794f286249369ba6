package io.github.threadmodel.internal.servers;

/**
 * Where the starters' web server factory customizers stand among Spring Boot's own.
 */
public final class ServerCustomizers {

	/**
	 * The order of the starters' server customizers. Spring Boot's customizers that apply
	 * {@code server.*} properties have order 0 and the ones for
	 * {@code spring.threads.virtual.enabled} order 1, on Boot 3.5 and 4 alike; the starter's
	 * come after them, so that the starter's executor is the one the server gets, while an
	 * application's own customizer can still come later.
	 */
	public static final int ORDER = 10;

	private ServerCustomizers() {
	}

}
