package io.github.threadmodel.internal.requests;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The servlet requests in asynchronous processing ({@code Callable}, {@code DeferredResult},
 * {@code StreamingResponseBody}, server-sent events), counted by
 * {@link RequestCountingFilter}: open from the end of their first dispatch, in asynchronous
 * mode, until they complete. They hold no request thread meanwhile, so they are neither
 * running nor queued on the request executor; their work, if any, runs on the application
 * task executor.
 */
public final class AsyncRequests {

	private final AtomicInteger open = new AtomicInteger();

	private final AtomicInteger peakOpen = new AtomicInteger();

	private final LongAdder started = new LongAdder();

	/**
	 * Counts a request whose first dispatch returned in asynchronous mode.
	 */
	public void onStarted() {
		this.started.increment();
		this.peakOpen.accumulateAndGet(this.open.incrementAndGet(), Math::max);
	}

	/**
	 * Counts an asynchronous request that completed (answered, timed out or failed).
	 */
	public void onCompleted() {
		this.open.decrementAndGet();
	}

	/**
	 * Asynchronous requests open now.
	 * @return the count
	 */
	public int open() {
		return this.open.get();
	}

	/**
	 * The most asynchronous requests seen open at once.
	 * @return the count
	 */
	public int peakOpen() {
		return this.peakOpen.get();
	}

	/**
	 * Requests that went asynchronous so far.
	 * @return the count
	 */
	public long started() {
		return this.started.sum();
	}

}
