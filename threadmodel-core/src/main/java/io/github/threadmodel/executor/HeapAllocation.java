package io.github.threadmodel.executor;

import java.lang.management.ManagementFactory;
import java.util.function.LongSupplier;

/**
 * What the JVM says of its heap between collections, for the adaptive limit to learn what
 * a task costs from: the bytes every thread has allocated since the JVM started (virtual
 * threads' allocations count on their carriers), the heap in use now (garbage included)
 * and the maximum heap.
 * <p>
 * A task holds at most what it allocated, and the heap in use now holds at least what is
 * live: both readings err on the side of less room, so a limit grown on them never
 * expects a task to hold less than it can. Read from the JVM, not from a JFR recording:
 * {@code getTotalThreadAllocatedBytes} costs a fraction of a microsecond and is read only
 * when the limit may grow.
 *
 * @param allocatedBytes the bytes allocated on the heap since the JVM started, or -1 when
 * the JVM does not measure it
 * @param usedHeap the bytes of the heap in use now, garbage included
 * @param maxHeap the maximum heap, in bytes
 */
record HeapAllocation(LongSupplier allocatedBytes, LongSupplier usedHeap, long maxHeap) {

	/**
	 * This JVM's readings.
	 * @return the readings, or {@code null} when the JVM does not measure allocation (a JVM
	 * without {@code com.sun.management}, or the measurement turned off through
	 * {@code setThreadAllocatedMemoryEnabled})
	 */
	static HeapAllocation ofThisJvm() {
		if (!(ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean threads)
				|| !threads.isThreadAllocatedMemorySupported() || !threads.isThreadAllocatedMemoryEnabled()
				|| threads.getTotalThreadAllocatedBytes() < 0) {
			return null;
		}
		Runtime runtime = Runtime.getRuntime();
		return new HeapAllocation(threads::getTotalThreadAllocatedBytes,
				() -> runtime.totalMemory() - runtime.freeMemory(), runtime.maxMemory());
	}

}
