package io.github.threadmodel.sample.web;

import java.util.LinkedHashMap;
import java.util.Map;

import io.github.threadmodel.sample.support.BadRequestException;

/**
 * What {@code /pinned?ms=N} does: sleeps while it holds a monitor. On JDK 21 a virtual
 * thread cannot unmount while it holds a monitor, so it keeps its carrier for the whole
 * sleep (pinning); from JDK 24 on it unmounts (JEP 491). Each request locks a monitor of
 * its own, so that requests never wait for one another, only for carriers.
 */
final class PinnedSleep {

	/** Upper bound of {@code ms}, so that one request cannot hold a carrier for long. */
	static final long MAX_MS = 10_000;

	/**
	 * The last monitor locked: published so that the JIT cannot prove the lock local and
	 * remove it (lock elision), which would take the pinning away.
	 */
	@SuppressWarnings("unused")
	private static volatile Object lastMonitor;

	private PinnedSleep() {
	}

	/**
	 * Sleeps {@code ms} milliseconds holding a monitor, then says which thread did.
	 * @throws BadRequestException if {@code ms} is negative or above {@link #MAX_MS}
	 */
	static Map<String, Object> sleep(long ms) throws InterruptedException {
		if (ms < 0 || ms > MAX_MS) {
			throw new BadRequestException("ms must be between 0 and " + MAX_MS + ", got " + ms);
		}
		Object monitor = new Object();
		lastMonitor = monitor;
		synchronized (monitor) {
			Thread.sleep(ms);
		}
		Thread thread = Thread.currentThread();
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("ms", ms);
		body.put("thread", thread.getName());
		body.put("virtual", thread.isVirtual());
		return body;
	}

}
