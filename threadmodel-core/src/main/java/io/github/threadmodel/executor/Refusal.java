package io.github.threadmodel.executor;

/**
 * Why a {@link ThreadModelExecutor} with {@link ExecutorSettings.OverloadProtection} did
 * not admit a task. Such a task is not dropped: it runs at once, on a virtual thread of
 * its own outside the executor's limits, and code it calls reads the refusal with
 * {@link #current()}, so that a web server can answer the request cheaply (503) instead
 * of dropping its connection.
 * @since 0.1.0
 */
public enum Refusal {

	/**
	 * Every platform thread was busy and the pool's queue was full
	 * ({@code app.threads.platform.queue-capacity}).
	 */
	QUEUE_FULL("queue-full"),

	/**
	 * The task waited longer than {@code app.threads.virtual.queue-timeout} for a permit
	 * of {@code app.threads.virtual.max-concurrency}.
	 */
	QUEUE_TIMEOUT("queue-timeout"),

	/**
	 * The task waited for a thread, on either model, as long as the executor lets a task
	 * wait before its web server would close the connection as idle
	 * ({@link ThreadModelExecutor#setMaxIdleWait}).
	 */
	IDLE_TIMEOUT("idle-timeout"),

	/**
	 * The server shut down gracefully and the task was still waiting for a thread when
	 * the time to finish the waiting tasks ran out (see
	 * {@link ThreadModelExecutor#finishQueued}).
	 */
	SHUTDOWN("shutdown");

	/** Set only on the refused task's own thread, for the task's whole run. */
	private static final ThreadLocal<Refusal> current = new ThreadLocal<>();

	private final String id;

	Refusal(String id) {
		this.id = id;
	}

	/**
	 * The refusal of the task running on this thread.
	 * @return the refusal, or {@code null} when the task was admitted (or the thread runs
	 * no executor task)
	 */
	public static Refusal current() {
		return current.get();
	}

	/**
	 * The refusal's name in property style, as the endpoint and the docs spell it.
	 * @return {@code queue-full}, {@code queue-timeout}, {@code idle-timeout} or
	 * {@code shutdown}
	 */
	public String id() {
		return this.id;
	}

	void run(Runnable task) {
		current.set(this);
		try {
			task.run();
		}
		finally {
			current.remove();
		}
	}

}
