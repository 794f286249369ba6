package io.github.threadmodel.internal.lanes;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

import io.github.threadmodel.executor.ThreadModelExecutor;
import jakarta.servlet.http.HttpServletRequest;

import org.springframework.http.server.PathContainer;
import org.springframework.http.server.RequestPath;
import org.springframework.web.util.pattern.PathPattern;

/**
 * The lanes of a servlet application, and which one a request belongs to: the lane of the
 * most specific of the lanes' path patterns that match the request's path after the
 * context path (as Spring MVC chooses among its routes), else the lane of the
 * {@code @ThreadLane} annotation of the handler that serves it, else none (the request
 * stays on the server's request executor). Closing it closes the lanes' executors, once
 * the server has stopped and its requests have ended.
 */
public final class Lanes implements AutoCloseable {

	private static final Lanes NONE = new Lanes(List.of());

	private final Map<String, Lane> byName = new TreeMap<>();

	private final LaneExecutors executors;

	/** Every lane's path patterns, the most specific first. */
	private final List<Map.Entry<PathPattern, Lane>> byPattern;

	/** The handlers annotated with a lane, once the handler mappings are known. */
	private volatile AnnotatedRoutes annotated = AnnotatedRoutes.NONE;

	/** The starts of every pattern that can put a request in a lane. */
	private volatile LiteralPrefixes prefixes;

	/**
	 * Creates the lanes.
	 * @param lanes the lanes
	 */
	public Lanes(List<Lane> lanes) {
		Map<String, ThreadModelExecutor> executors = new TreeMap<>();
		for (Lane lane : lanes) {
			this.byName.put(lane.name(), lane);
			executors.put(lane.name(), lane.executor());
		}
		this.executors = new LaneExecutors(executors);
		this.byPattern = lanes.stream()
			.flatMap((lane) -> lane.patterns().stream().map((pattern) -> Map.entry(pattern, lane)))
			.sorted(Map.Entry.comparingByKey(PathPattern.SPECIFICITY_COMPARATOR))
			.toList();
		this.prefixes = LiteralPrefixes.of(pathPatterns());
	}

	private List<String> pathPatterns() {
		return this.byPattern.stream().map((entry) -> entry.getKey().getPatternString()).toList();
	}

	/**
	 * No lanes.
	 * @return lanes that hold no request
	 */
	public static Lanes none() {
		return NONE;
	}

	/**
	 * Whether there is no lane: every request stays on the request executor.
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
	 * The lanes' executors.
	 * @return the executors, by the lanes' names
	 */
	public LaneExecutors executors() {
		return this.executors;
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
		return this.annotated.handlers(lane);
	}

	/**
	 * Uses the handlers annotated with a lane; called once the handler mappings are known.
	 * @param annotated the annotated handlers
	 */
	void useAnnotated(AnnotatedRoutes annotated) {
		this.annotated = annotated;
		List<String> patterns = annotated.patterns();
		this.prefixes = (patterns != null)
				? LiteralPrefixes.of(Stream.concat(pathPatterns().stream(), patterns.stream()).toList())
				: LiteralPrefixes.ANY;
	}

	/**
	 * The lane a request belongs to.
	 * @param request the request, on its first dispatch
	 * @return the lane, or {@code null} for none
	 */
	public Lane laneOf(HttpServletRequest request) {
		String requestUri = request.getRequestURI();
		String contextPath = request.getContextPath();
		if (this.byName.isEmpty() || !this.prefixes.mayMatch(requestUri, contextPath)) {
			return null;
		}
		PathContainer path = RequestPath.parse(requestUri, contextPath).pathWithinApplication();
		for (Map.Entry<PathPattern, Lane> entry : this.byPattern) {
			if (entry.getKey().matches(path)) {
				return entry.getValue();
			}
		}
		return this.annotated.laneOf(request, path);
	}

	@Override
	public void close() {
		this.executors.stream().forEach(ThreadModelExecutor::close);
	}

}
