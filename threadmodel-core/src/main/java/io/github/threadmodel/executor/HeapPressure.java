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
import java.util.function.DoubleConsumer;
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

	private HeapPressure(DoubleConsumer usedAfterGc) {
		Set<String> heapPools = ManagementFactory.getMemoryPoolMXBeans()
			.stream()
			.filter((pool) -> pool.getType() == MemoryType.HEAP)
			.map(MemoryPoolMXBean::getName)
			.collect(Collectors.toSet());
		long maxHeap = Runtime.getRuntime().maxMemory();
		this.listener = (notification, handback) -> {
			Double share = share(notification, heapPools, maxHeap);
			if (share != null) {
				usedAfterGc.accept(share);
			}
		};
		for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
			if (collector instanceof NotificationEmitter emitter) {
				emitter.addNotificationListener(this.listener, null, null);
				this.emitters.add(emitter);
			}
		}
	}

	/**
	 * Starts reporting.
	 * @param usedAfterGc takes the share (0 to 1) of the maximum heap used after each
	 * collection, on the JVM's notification thread
	 * @return the running report, or {@code null} when this JVM does not report its
	 * collections (no {@code jdk.management} module, or no collector that notifies)
	 */
	static HeapPressure start(DoubleConsumer usedAfterGc) {
		try {
			HeapPressure pressure = new HeapPressure(usedAfterGc);
			if (pressure.emitters.isEmpty()) {
				return null;
			}
			return pressure;
		}
		catch (LinkageError | RuntimeException ex) {
			return null;
		}
	}

	private static Double share(Notification notification, Set<String> heapPools, long maxHeap) {
		if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType())
				|| maxHeap <= 0 || maxHeap == Long.MAX_VALUE) {
			return null;
		}
		GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo
			.from((CompositeData) notification.getUserData());
		if (info.getGcAction().toLowerCase(Locale.ROOT).contains("pause")) {
			// a pause within a concurrent cycle (G1's remark and cleanup, ZGC's and Shenandoah's
			// pauses) has freed nothing yet: only the end of a collection says what stays
			return null;
		}
		long used = 0;
		for (Map.Entry<String, MemoryUsage> pool : info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
			if (heapPools.contains(pool.getKey())) {
				used += pool.getValue().getUsed();
			}
		}
		return (double) used / maxHeap;
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
