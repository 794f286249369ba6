package io.github.threadmodel.internal.lanes;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.http.server.PathContainer;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerExecutionChain;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.RequestMappingInfoHandlerMapping;
import org.springframework.web.util.ServletRequestPathUtils;
import org.springframework.web.util.pattern.PathPattern;

/**
 * The Spring MVC handler methods annotated with {@code @ThreadLane}, and the lane of a
 * request whose handler is one of them. A request is looked up only when its path matches
 * a pattern of an annotated handler; then the handler mappings are asked in the
 * dispatcher's order, as Spring Security asks them for its matchers, so that a more
 * specific route that is not annotated keeps its requests.
 */
final class AnnotatedRoutes {

	private final List<HandlerMapping> mappings;

	private final Lanes lanes;

	private final Set<PathPattern> patterns;

	/** Whether a mapping matches with patterns other than path patterns: every request is looked up. */
	private final boolean lookUpEvery;

	private AnnotatedRoutes(List<HandlerMapping> mappings, Lanes lanes, Set<PathPattern> patterns,
			boolean lookUpEvery) {
		this.mappings = mappings;
		this.lanes = lanes;
		this.patterns = patterns;
		this.lookUpEvery = lookUpEvery;
	}

	/**
	 * Finds the handler methods annotated with a lane and has the lanes use them.
	 * @param lanes the lanes
	 * @param mappings every handler mapping of the application, in the dispatcher's order
	 * @return how a request's handler is found, or {@code null} when no handler is
	 * annotated
	 * @throws UnknownLaneException for an annotation that names no lane
	 */
	static AnnotatedRoutes of(Lanes lanes, List<HandlerMapping> mappings) {
		List<HandlerMethod> handlerMethods = new ArrayList<>();
		Set<PathPattern> patterns = new LinkedHashSet<>();
		boolean lookUpEvery = false;
		for (HandlerMapping mapping : mappings) {
			if (!(mapping instanceof RequestMappingInfoHandlerMapping infoMapping)) {
				continue;
			}
			for (Map.Entry<RequestMappingInfo, HandlerMethod> entry : infoMapping.getHandlerMethods().entrySet()) {
				handlerMethods.add(entry.getValue());
				if (LaneAnnotations.annotation(entry.getValue()) == null) {
					continue;
				}
				RequestMappingInfo info = entry.getKey();
				if (info.getPathPatternsCondition() != null) {
					patterns.addAll(info.getPathPatternsCondition().getPatterns());
				}
				else {
					lookUpEvery = true;
				}
			}
		}
		lanes.annotate(handlerMethods);
		return patterns.isEmpty() && !lookUpEvery ? null
				: new AnnotatedRoutes(List.copyOf(mappings), lanes, patterns, lookUpEvery);
	}

	/**
	 * The path patterns of the annotated handlers.
	 * @return their text, or {@code null} when a handler mapping matches with other
	 * patterns, and any request may be an annotated handler's
	 */
	List<String> patterns() {
		return this.lookUpEvery ? null : this.patterns.stream().map(PathPattern::getPatternString).toList();
	}

	Lane laneOf(HttpServletRequest request, PathContainer path) {
		if (!(this.lookUpEvery || matchesAnnotatedPattern(path))) {
			return null;
		}
		return (handler(request) instanceof HandlerMethod method) ? this.lanes.laneOf(method) : null;
	}

	private boolean matchesAnnotatedPattern(PathContainer path) {
		for (PathPattern pattern : this.patterns) {
			if (pattern.matches(path)) {
				return true;
			}
		}
		return false;
	}

	/**
	 * The handler the dispatcher will choose; the request is left as it was found but for
	 * the attributes of the match, which the dispatcher sets again.
	 */
	private Object handler(HttpServletRequest request) {
		boolean parsed = ServletRequestPathUtils.hasParsedRequestPath(request);
		if (!parsed) {
			ServletRequestPathUtils.parseAndCache(request);
		}
		try {
			for (HandlerMapping mapping : this.mappings) {
				HandlerExecutionChain chain = mapping.getHandler(request);
				if (chain != null) {
					return chain.getHandler();
				}
			}
			return null;
		}
		catch (Exception ex) {
			return null; // the dispatcher meets the same failure and answers it
		}
		finally {
			if (!parsed) {
				ServletRequestPathUtils.clearParsedRequestPath(request);
			}
		}
	}

}
