package io.github.threadmodel.autoconfigure;

/**
 * Thrown at startup when an {@code app.threads.*} property has a value no executor can
 * run with.
 */
public class InvalidThreadModelPropertyException extends RuntimeException {

	private final String property;

	private final Object value;

	private final String allowed;

	public InvalidThreadModelPropertyException(String property, Object value, String allowed) {
		super("Invalid value '" + value + "' for property '" + property + "': allowed is " + allowed);
		this.property = property;
		this.value = value;
		this.allowed = allowed;
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
