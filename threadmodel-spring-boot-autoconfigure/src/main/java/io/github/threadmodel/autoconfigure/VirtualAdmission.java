package io.github.threadmodel.autoconfigure;

/**
 * What {@code app.threads.virtual.admission} chooses: how many requests may run at once on
 * virtual threads.
 * @since 0.1.0
 */
public enum VirtualAdmission {

	/**
	 * A limit that follows what the heap can hold (app.threads.virtual.adaptive.*): it
	 * starts at its maximum and falls whenever a garbage collection leaves the heap too
	 * full; requests beyond it wait in arrival order.
	 */
	ADAPTIVE,

	/**
	 * A fixed limit, app.threads.virtual.max-concurrency.
	 */
	FIXED,

	/**
	 * No limit, as plain virtual threads: every request runs at once.
	 */
	UNLIMITED

}
