package io.github.threadmodel.executor;

import java.time.Duration;

/**
 * What a {@link ThreadModelExecutor} runs on: the model and the limits of each model.
 *
 * @param model the thread model
 * @param platform the platform pool's sizing, used when the model is {@link ThreadModel#PLATFORM}
 * @param maxConcurrency how many tasks may run at once on virtual threads, a fixed limit, or {@code null}
 * for none
 * @param adaptive the bounds of an adaptive limit on virtual threads, used when
 * {@code maxConcurrency} is {@code null}; {@code null} for no limit at all
 * @since 0.1.0
 */
public record ExecutorSettings(ThreadModel model, PlatformPool platform, Integer maxConcurrency,
		AdaptiveAdmission adaptive) {

	/**
	 * Settings without an adaptive limit.
	 * @param model the thread model
	 * @param platform the platform pool's sizing
	 * @param maxConcurrency the fixed virtual concurrency limit, or {@code null} for none
	 */
	public ExecutorSettings(ThreadModel model, PlatformPool platform, Integer maxConcurrency) {
		this(model, platform, maxConcurrency, null);
	}

	/**
	 * These settings with another model and, where given, other limits.
	 * @param model the model
	 * @param maxThreads the platform pool's new limit, or {@code null} to keep it (the
	 * pool's minimum follows when it would exceed it)
	 * @param maxConcurrency the new virtual concurrency limit, or {@code null} to keep it; a
	 * fixed limit, which takes the place of an adaptive one
	 * @return the new settings
	 */
	public ExecutorSettings with(ThreadModel model, Integer maxThreads, Integer maxConcurrency) {
		PlatformPool pool = this.platform;
		if (maxThreads != null) {
			pool = new PlatformPool(maxThreads, Math.min(pool.minThreads(), maxThreads), pool.queueCapacity(),
					pool.keepAlive());
		}
		return new ExecutorSettings(model, pool, (maxConcurrency != null) ? maxConcurrency : this.maxConcurrency,
				this.adaptive);
	}

	/**
	 * Sizing of a platform thread pool.
	 *
	 * @param maxThreads the most threads the pool grows to before tasks queue
	 * @param minThreads the threads kept alive when idle
	 * @param queueCapacity how many tasks may wait for a thread, or {@code null} for no limit
	 * @param keepAlive how long a thread above {@code minThreads} stays idle before it ends
	 */
	public record PlatformPool(int maxThreads, int minThreads, Integer queueCapacity, Duration keepAlive) {

	}

}
