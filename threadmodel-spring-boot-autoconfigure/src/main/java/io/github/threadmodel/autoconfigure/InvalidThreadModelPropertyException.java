package io.github.threadmodel.autoconfigure;

import java.time.Duration;

/**
 * Thrown at startup when an {@code app.threads.*} property has a value no executor can
 * run with.
 */
public class InvalidThreadModelPropertyException extends RuntimeException {

	private final String property;

	private final Object value;

	private final String allowed;

	public InvalidThreadModelPropertyException(String property, Object value, String allowed) {
		super("Invalid value '" + display(value) + "' for property '" + property + "': allowed is " + allowed);
		this.property = property;
		this.value = display(value);
		this.allowed = allowed;
	}

	/**
	 * Durations as a property would spell them, not as ISO-8601 ({@code PT-1S}).
	 */
	private static Object display(Object value) {
		return (value instanceof Duration duration) ? duration.toMillis() + "ms" : value;
	}

	public String getProperty() {
		return this.property;
	}

	public Object getValue() {
		return this.value;
	}

	public String getAllowed() {
		return this.allowed;
	}

}
