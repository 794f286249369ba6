package io.github.threadmodel.internal.actuate;

/**
 * A bad value as an answer repeats it: its start only, however long it was.
 */
public final class ShownValue {

	private static final int SHOWN_LENGTH = 40;

	private ShownValue() {
	}

	/**
	 * The value, or its first characters followed by {@code ...}.
	 * @param value the value as received
	 * @return what the answer shows
	 */
	public static String of(String value) {
		return (value.length() <= SHOWN_LENGTH) ? value : value.substring(0, SHOWN_LENGTH) + "...";
	}

}
