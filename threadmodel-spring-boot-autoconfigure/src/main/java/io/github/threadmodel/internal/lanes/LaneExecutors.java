package io.github.threadmodel.internal.lanes;

import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Stream;

import io.github.threadmodel.executor.ThreadModelExecutor;

/**
 * The lanes' executors by the lanes' names: what the health contributor, pinning detection
 * and the drain at shutdown need of the lanes. Kept apart from {@link Lanes}, which matches
 * servlet requests, so that those parts load no servlet type in a WebFlux application,
 * where there is no lane.
 */
public final class LaneExecutors {

	private static final LaneExecutors NONE = new LaneExecutors(Map.of());

	private final SortedMap<String, ThreadModelExecutor> byName;

	/**
	 * Creates the view.
	 * @param byName each lane's executor, by the lane's name
	 */
	public LaneExecutors(Map<String, ThreadModelExecutor> byName) {
		this.byName = Collections.unmodifiableSortedMap(new TreeMap<>(byName));
	}

	/**
	 * No lanes.
	 * @return the executors of no lane
	 */
	public static LaneExecutors none() {
		return NONE;
	}

	/**
	 * The start of the names of a lane's threads, which the executor follows with its model
	 * and a number ({@code lane-cpu-platform-1}).
	 * @param name the lane's name
	 * @return the start of its threads' names
	 */
	public static String threadNamePrefix(String name) {
		return "lane-" + name + "-";
	}

	/**
	 * Whether there is no lane.
	 * @return whether there is none
	 */
	public boolean isEmpty() {
		return this.byName.isEmpty();
	}

	/**
	 * The executors by the lanes' names.
	 * @return the executors, in the order of the names
	 */
	public SortedMap<String, ThreadModelExecutor> byName() {
		return this.byName;
	}

	/**
	 * The executors.
	 * @return the executors, in the order of the lanes' names
	 */
	public Stream<ThreadModelExecutor> stream() {
		return this.byName.values().stream();
	}

	/**
	 * The lane a thread runs for, from its name.
	 * @param threadName the thread's name
	 * @return the lane's name, or {@code null} for a thread of no lane
	 */
	public String laneOfThread(String threadName) {
		String found = null;
		for (String name : this.byName.keySet()) {
			// the longest that fits: lane-a-b-virtual-1 is lane a-b's, not lane a's
			if (threadName.startsWith(threadNamePrefix(name)) && (found == null || name.length() > found.length())) {
				found = name;
			}
		}
		return found;
	}

}
