package io.github.threadmodel.executor;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

import com.sun.management.GarbageCollectionNotificationInfo;

/**
 * Reports, after every garbage collection, the share of the maximum heap still used: what
 * the collector could not free. Raw heap usage says little (it includes garbage not yet
 * collected); usage after a collection is what the application holds.
 * <p>
 * Every collection counts, young ones included: under a burst the old generation fills
 * through young collections, and a pool's own collection-usage threshold (for G1's old
 * generation) is only updated by mixed and full collections, which come too late.
 */
final class HeapPressure implements AutoCloseable {

	private final List<NotificationEmitter> emitters = new ArrayList<>();

	private final NotificationListener listener;

	/**
	 * Takes the heap's state after each collection.
	 */
	@FunctionalInterface
	interface Report {

		/**
		 * @param usedShare the share (0 to 1) of the maximum heap still used
		 * @param full whether the collection was a full (major) one, which leaves only what
		 * is live
		 */
		void afterCollection(double usedShare, boolean full);

	}

	private HeapPressure(Report report) {
		Set<String> heapPools = ManagementFactory.getMemoryPoolMXBeans()
			.stream()
			.filter((pool) -> pool.getType() == MemoryType.HEAP)
			.map(MemoryPoolMXBean::getName)
			.collect(Collectors.toSet());
		long maxHeap = Runtime.getRuntime().maxMemory();
		this.listener = (notification, handback) -> report(notification, heapPools, maxHeap, report);
		for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
			if (collector instanceof NotificationEmitter emitter) {
				emitter.addNotificationListener(this.listener, null, null);
				this.emitters.add(emitter);
			}
		}
	}

	/**
	 * Starts reporting.
	 * @param report takes the heap's state after each collection, on the JVM's
	 * notification thread
	 * @return the running report, or {@code null} when this JVM does not report its
	 * collections (no {@code jdk.management} module, or no collector that notifies)
	 */
	static HeapPressure start(Report report) {
		try {
			HeapPressure pressure = new HeapPressure(report);
			if (pressure.emitters.isEmpty()) {
				return null;
			}
			return pressure;
		}
		catch (LinkageError | RuntimeException ex) {
			return null;
		}
	}

	private static void report(Notification notification, Set<String> heapPools, long maxHeap, Report report) {
		if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType())
				|| maxHeap <= 0 || maxHeap == Long.MAX_VALUE) {
			return;
		}
		GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo
			.from((CompositeData) notification.getUserData());
		String action = info.getGcAction().toLowerCase(Locale.ROOT);
		if (action.contains("pause")) {
			// a pause within a concurrent cycle (G1's remark and cleanup, ZGC's and Shenandoah's
			// pauses) has freed nothing yet: only the end of a collection says what stays
			return;
		}
		long used = 0;
		for (Map.Entry<String, MemoryUsage> pool : info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
			if (heapPools.contains(pool.getKey())) {
				used += pool.getValue().getUsed();
			}
		}
		boolean full = action.contains("major") || info.getGcName().contains("Major");
		report.afterCollection((double) used / maxHeap, full);
	}

	@Override
	public void close() {
		for (NotificationEmitter emitter : this.emitters) {
			try {
				emitter.removeNotificationListener(this.listener);
			}
			catch (ListenerNotFoundException ex) {
				// removed already
			}
		}
		this.emitters.clear();
	}

}
