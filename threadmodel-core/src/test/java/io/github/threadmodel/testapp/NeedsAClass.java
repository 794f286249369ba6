package io.github.threadmodel.testapp;

/**
 * Uses {@link NeededClass} in {@link #run()}, so the JVM loads that class the first time
 * {@code run} executes (see {@link FreshClassCopy#runLoadingSlowly}).
 */
public final class NeedsAClass {

	private NeedsAClass() {
	}

	public static String run() {
		return new NeededClass().toString();
	}

	/**
	 * The class {@link NeedsAClass#run()} needs.
	 */
	public static final class NeededClass {

	}

}
