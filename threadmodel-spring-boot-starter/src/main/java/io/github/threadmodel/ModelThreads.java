package io.github.threadmodel;

import java.util.List;
import java.util.concurrent.Executor;

/**
 * The threads of one {@link ThreadModel} behind a {@link ThreadModelExecutor}.
 */
sealed interface ModelThreads extends Executor permits PlatformThreadPool, VirtualThreads {

	ThreadModel model();

	/**
	 * Platform threads alive now, or {@code null} on virtual threads.
	 */
	Integer poolSize();

	/**
	 * The platform pool's limit, or {@code null} on virtual threads.
	 */
	Integer maxPoolSize();

	/**
	 * The virtual concurrency limit, or {@code null} when there is none.
	 */
	Integer maxConcurrency();

	/**
	 * Refuses new tasks; tasks accepted already still run, and the threads end when idle.
	 */
	void shutdown();

	/**
	 * Removes the tasks that are waiting for a thread, so that other threads can run them.
	 * @return the waiting tasks, in arrival order
	 */
	List<Runnable> drainWaiting();

	static ModelThreads create(ExecutorSettings settings, String threadNamePrefix) {
		return switch (settings.model()) {
			case PLATFORM -> new PlatformThreadPool(settings.platform(), threadNamePrefix + "platform-");
			case VIRTUAL -> new VirtualThreads(settings.maxConcurrency(), threadNamePrefix + "virtual-");
		};
	}

}
