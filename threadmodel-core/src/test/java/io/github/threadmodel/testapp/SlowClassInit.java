package io.github.threadmodel.testapp;

/**
 * A class whose static initializer blocks, which pins a virtual thread that initializes
 * it (still so on JDK 25). Load fresh copies with {@link FreshClassCopy} to run the
 * initializer again.
 */
public final class SlowClassInit {

	/** How long the initializer blocks. */
	public static final long BLOCK_MS = 150;

	/**
	 * The least pinned time an initialization is reported with: JDK 21 to 23 time the
	 * pinning from the failed attempt to unmount, some milliseconds into the sleep (145 of
	 * 150 ms on an idle machine), JDK 24 and later from the start of the sleep.
	 */
	public static final long PINNED_AT_LEAST_MS = BLOCK_MS / 2;

	static {
		try {
			Thread.sleep(BLOCK_MS); // the initializer's work, which pins the thread: not a wait of a test
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private SlowClassInit() {
	}

}
