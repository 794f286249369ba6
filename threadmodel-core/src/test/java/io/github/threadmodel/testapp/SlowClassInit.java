package io.github.threadmodel.testapp;

/**
 * A class whose static initializer blocks, which pins a virtual thread that initializes
 * it (still so on JDK 25). Load fresh copies with {@link FreshClassCopy} to run the
 * initializer again.
 */
public final class SlowClassInit {

	/** How long the initializer blocks. */
	public static final long BLOCK_MS = 150;

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
