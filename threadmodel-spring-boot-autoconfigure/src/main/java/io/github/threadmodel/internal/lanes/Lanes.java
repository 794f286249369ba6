package io.github.threadmodel.internal.lanes;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

import io.github.threadmodel.executor.ThreadModelExecutor;

import org.springframework.http.server.PathContainer;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.util.pattern.PathPattern;

/**
 * The lanes of an application, and which one a request belongs to: the lane of the most
 * specific of the lanes' path patterns that match the request's path after the context
 * path (as Spring MVC chooses among its routes), else the lane of the {@code @ThreadLane}
 * annotation of the handler that serves it, else none (the request stays where it runs
 * without lanes). The same on every stack: {@link ServletLanes} finds a servlet request's
 * lane from it, {@link LaneHandlerAdapter} a WebFlux request's. Closing it closes the
 * lanes' executors, once the server has stopped and its requests have ended.
 */
public final class Lanes implements AutoCloseable {

	private static final Lanes NONE = new Lanes(List.of());

	private final Map<String, Lane> byName = new TreeMap<>();

	/** Every lane's path patterns, the most specific first. */
	private final List<Map.Entry<PathPattern, Lane>> byPattern;

	/** The handlers annotated with a lane, once the handler mappings are known. */
	private volatile LaneAnnotations annotations = LaneAnnotations.NONE;

	/**
	 * Creates the lanes.
	 * @param lanes the lanes
	 */
	public Lanes(List<Lane> lanes) {
		lanes.forEach((lane) -> this.byName.put(lane.name(), lane));
		this.byPattern = lanes.stream()
			.flatMap((lane) -> lane.patterns().stream().map((pattern) -> Map.entry(pattern, lane)))
			.sorted(Map.Entry.comparingByKey(PathPattern.SPECIFICITY_COMPARATOR))
			.toList();
	}

	/**
	 * No lanes.
	 * @return lanes that hold no request
	 */
	public static Lanes none() {
		return NONE;
	}

	/**
	 * Whether there is no lane: every request stays where it runs without lanes.
	 * @return whether there is none
	 */
	public boolean isEmpty() {
		return this.byName.isEmpty();
	}

	/**
	 * The lanes.
	 * @return the lanes, by name
	 */
	public List<Lane> all() {
		return List.copyOf(this.byName.values());
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
	 * The lanes' executors.
	 * @return the executors, in the order of the lanes' names
	 */
	public Stream<ThreadModelExecutor> executors() {
		return this.byName.values().stream().map(Lane::executor);
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

	/**
	 * The names of the lanes.
	 * @return the names, in alphabetical order
	 */
	public Set<String> names() {
		return this.byName.keySet();
	}

	/**
	 * A lane by its name.
	 * @param name the name
	 * @return the lane, or {@code null} when there is none of that name
	 */
	public Lane get(String name) {
		return this.byName.get(name);
	}

	/**
	 * The handlers annotated with each lane, as {@code Controller#method}.
	 * @param lane the lane
	 * @return the handlers, empty before the handler mappings are known
	 */
	public List<String> annotatedHandlers(Lane lane) {
		return this.annotations.handlers(lane);
	}

	/**
	 * Finds the handler methods annotated with a lane; called once the handler mappings
	 * are known.
	 * @param handlerMethods every handler method of the application
	 * @throws UnknownLaneException for an annotation that names no lane
	 */
	public void annotate(Collection<HandlerMethod> handlerMethods) {
		this.annotations = LaneAnnotations.of(this, handlerMethods);
	}

	/**
	 * The lane of a request whose handler method is known (on WebFlux).
	 * @param path the request's path within the application
	 * @param handler its handler method
	 * @return the lane, or {@code null} for none
	 */
	public Lane laneOf(PathContainer path, HandlerMethod handler) {
		Lane lane = laneOfPath(path);
		return (lane != null) ? lane : laneOf(handler);
	}

	/**
	 * The lane of a path, by the lanes' path patterns.
	 * @param path a request's path within the application
	 * @return the lane of the most specific pattern that matches, or {@code null}
	 */
	Lane laneOfPath(PathContainer path) {
		for (Map.Entry<PathPattern, Lane> entry : this.byPattern) {
			if (entry.getKey().matches(path)) {
				return entry.getValue();
			}
		}
		return null;
	}

	/** The lane of a handler method, by its annotation, or {@code null}. */
	Lane laneOf(HandlerMethod handler) {
		return this.annotations.laneOf(handler.getMethod());
	}

	/** The lanes' path patterns, the most specific first. */
	List<String> pathPatterns() {
		return this.byPattern.stream().map((entry) -> entry.getKey().getPatternString()).toList();
	}

	@Override
	public void close() {
		executors().forEach(ThreadModelExecutor::close);
	}

}
