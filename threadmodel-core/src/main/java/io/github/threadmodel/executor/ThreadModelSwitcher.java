package io.github.threadmodel.executor;

/**
 * Switches the thread model of a running application: the request executor, and the
 * application task executor when it follows the server's model. The task executor takes
 * the new model only: the limits given are the request executor's, and the task executor
 * keeps its own.
 * @since 0.1.0
 */
public final class ThreadModelSwitcher {

	private final ThreadModelExecutor requests;

	private final ThreadModelExecutor followingTasks;

	private final boolean enabled;

	/**
	 * Creates a switcher.
	 * @param requests the request executor
	 * @param followingTasks the application task executor when it follows the server's
	 * model, otherwise {@code null}
	 * @param enabled whether switching is allowed at all
	 */
	public ThreadModelSwitcher(ThreadModelExecutor requests, ThreadModelExecutor followingTasks, boolean enabled) {
		this.requests = requests;
		this.followingTasks = followingTasks;
		this.enabled = enabled;
	}

	/**
	 * Whether switching is allowed at all.
	 * @return {@code false} when {@link #switchTo} throws
	 */
	public boolean isEnabled() {
		return this.enabled;
	}

	/**
	 * Switches to a model, optionally with new limits. Nothing changes when a value is
	 * invalid.
	 * @param model the new model
	 * @param maxThreads the platform pool's new limit, or {@code null} to keep it
	 * @param maxConcurrency the new virtual concurrency limit, or {@code null} to keep it
	 * @param requestedBy who asks, for the history
	 * @return the switch of the request executor, or {@code null} when the request
	 * executor already runs that model with those limits: then nothing is switched nor
	 * recorded
	 * @throws IllegalArgumentException when a limit is below 1
	 * @throws IllegalStateException when switching is disabled
	 */
	public ModelSwitch switchTo(ThreadModel model, Integer maxThreads, Integer maxConcurrency, String requestedBy) {
		if (!this.enabled) {
			throw new IllegalStateException("Switching the thread model is disabled");
		}
		requireAtLeastOne("maxThreads", maxThreads);
		requireAtLeastOne("maxConcurrency", maxConcurrency);
		ExecutorSettings next = this.requests.getSettings().with(model, maxThreads, maxConcurrency);
		if (next.equals(this.requests.getSettings())) {
			return null;
		}
		ModelSwitch change = this.requests.switchTo(next, requestedBy);
		if (this.followingTasks != null && this.followingTasks.getModel() != model) {
			this.followingTasks.switchTo(this.followingTasks.getSettings().with(model, null, null), requestedBy);
		}
		return change;
	}

	private static void requireAtLeastOne(String name, Integer value) {
		if (value != null && value < 1) {
			throw new IllegalArgumentException(name + " must be a whole number of 1 or more, not " + value);
		}
	}

}
