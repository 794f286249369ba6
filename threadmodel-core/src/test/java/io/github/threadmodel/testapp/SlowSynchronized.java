package io.github.threadmodel.testapp;

/**
 * Blocks inside {@code synchronized}: on JDK 21 to 23 this pins a virtual thread that
 * calls {@link #run()} to its carrier, at the call site {@code SlowSynchronized.run}; since
 * JDK 24 (JEP 491) the virtual thread unmounts and nothing pins.
 */
public final class SlowSynchronized {

	/** How long {@link #run()} blocks while it holds the monitor. */
	public static final long BLOCK_MS = SlowClassInit.BLOCK_MS;

	/** The least pinned time a call is reported with on JDK 21 to 23 (see {@link SlowClassInit#PINNED_AT_LEAST_MS}). */
	public static final long PINNED_AT_LEAST_MS = SlowClassInit.PINNED_AT_LEAST_MS;

	private static final Object MONITOR = new Object();

	private SlowSynchronized() {
	}

	/**
	 * Sleeps {@link #BLOCK_MS} while holding a monitor.
	 * @return the name of the thread that ran it
	 */
	public static String run() {
		synchronized (MONITOR) {
			try {
				Thread.sleep(BLOCK_MS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
		return Thread.currentThread().getName();
	}

}
