package io.github.threadmodel.executor;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * Asks for a full garbage collection when the heap has been reported under pressure but no
 * collection has come for a {@link HeapLimit#QUIET_INTERVAL} while tasks wait, at most once
 * per {@link #CHECK_INTERVAL}. Usage after a young collection counts what ended tasks left
 * in the old generation until a mixed or full collection frees it, and with the limit low
 * the few tasks let in allocate too little for any collection to come: the limit would stay
 * at its minimum on a heap that is mostly garbage. The full collection says what is live;
 * with -XX:+DisableExplicitGC it does nothing and the limit waits for the next collection.
 */
final class StalePressureCheck {

	/** The shortest time between two collections the check asks for. */
	static final Duration CHECK_INTERVAL = Duration.ofSeconds(5);

	private final LongSupplier clock;

	private final Runnable collect;

	/** When the last collection was reported, and when the check last asked for one. */
	private volatile long lastCollection;

	private volatile long lastCheck;

	/**
	 * @param clock the time in nanoseconds, as {@link System#nanoTime()}
	 * @param collect asks for a full collection without blocking the caller (see
	 * {@link #systemGcInBackground()})
	 */
	StalePressureCheck(LongSupplier clock, Runnable collect) {
		this.clock = clock;
		this.collect = collect;
		this.lastCheck = clock.getAsLong() - CHECK_INTERVAL.toNanos();
		this.lastCollection = clock.getAsLong();
	}

	/**
	 * A full collection, as {@link System#gc()} asks for one, on a virtual thread of its
	 * own: the task that found no permit does not wait for it.
	 * @return the request
	 */
	static Runnable systemGcInBackground() {
		return () -> Thread.ofVirtual().name("adaptive-limit-gc").start(System::gc);
	}

	/**
	 * Notes that a collection reported the heap's state.
	 */
	void collected() {
		this.lastCollection = this.clock.getAsLong();
	}

	/**
	 * Asks for a full collection if the pressure reported is stale: a task waits, and no
	 * collection came for a quiet interval.
	 */
	void tasksWait() {
		long now = this.clock.getAsLong();
		if (now - this.lastCollection >= HeapLimit.QUIET_INTERVAL.toNanos()
				&& now - this.lastCheck >= CHECK_INTERVAL.toNanos()) {
			synchronized (this) {
				if (now - this.lastCheck < CHECK_INTERVAL.toNanos()) {
					return;
				}
				this.lastCheck = now;
			}
			HeapPressureLog.askingForFullCollection(now - this.lastCollection);
			this.collect.run();
		}
	}

}
