package io.github.threadmodel.internal.lanes;

import java.util.List;
import java.util.stream.Stream;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.http.server.PathContainer;
import org.springframework.http.server.RequestPath;
import org.springframework.web.servlet.HandlerMapping;

/**
 * Which lane a servlet request belongs to, before Spring MVC has chosen its handler: by
 * the lanes' path patterns, else, when its path matches an annotated route's pattern, by
 * the handler the dispatcher will choose ({@link AnnotatedRoutes}). A request whose path
 * starts where no such pattern does is told apart without parsing its path
 * ({@link LiteralPrefixes}). Apart from {@link Lanes} so that a WebFlux application loads
 * no servlet type.
 */
public final class ServletLanes {

	private static final ServletLanes NONE = new ServletLanes(Lanes.none());

	private final Lanes lanes;

	/** The starts of every pattern that can put a request in a lane. */
	private volatile LiteralPrefixes prefixes;

	/** How a request's handler is found, when some handler is annotated; else {@code null}. */
	private volatile AnnotatedRoutes annotatedRoutes;

	/**
	 * Creates the view.
	 * @param lanes the lanes
	 */
	public ServletLanes(Lanes lanes) {
		this.lanes = lanes;
		this.prefixes = LiteralPrefixes.of(lanes.pathPatterns());
	}

	/**
	 * No lanes.
	 * @return lanes that hold no request
	 */
	public static ServletLanes none() {
		return NONE;
	}

	/**
	 * Whether there is no lane.
	 * @return whether there is none
	 */
	public boolean isEmpty() {
		return this.lanes.isEmpty();
	}

	/**
	 * Finds the Spring MVC handler methods annotated with a lane; called once every handler
	 * mapping has registered its handlers.
	 * @param mappings every handler mapping of the application, in the dispatcher's order
	 * @throws UnknownLaneException for an annotation that names no lane
	 */
	public void annotate(List<HandlerMapping> mappings) {
		AnnotatedRoutes routes = AnnotatedRoutes.of(this.lanes, mappings);
		if (routes != null) {
			List<String> patterns = routes.patterns();
			this.prefixes = (patterns != null)
					? LiteralPrefixes.of(Stream.concat(this.lanes.pathPatterns().stream(), patterns.stream()).toList())
					: LiteralPrefixes.ANY;
			this.annotatedRoutes = routes;
		}
	}

	/**
	 * The lane a request belongs to.
	 * @param request the request, on its first dispatch
	 * @return the lane, or {@code null} for none
	 */
	public Lane laneOf(HttpServletRequest request) {
		String requestUri = request.getRequestURI();
		String contextPath = request.getContextPath();
		if (this.lanes.isEmpty() || !this.prefixes.mayMatch(requestUri, contextPath)) {
			return null;
		}
		PathContainer path = RequestPath.parse(requestUri, contextPath).pathWithinApplication();
		Lane lane = this.lanes.laneOfPath(path);
		AnnotatedRoutes routes = this.annotatedRoutes;
		return (lane != null || routes == null) ? lane : routes.laneOf(request, path);
	}

}
