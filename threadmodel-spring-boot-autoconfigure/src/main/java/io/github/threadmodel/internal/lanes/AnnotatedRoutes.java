package io.github.threadmodel.internal.lanes;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.github.threadmodel.lanes.ThreadLane;
import jakarta.servlet.http.HttpServletRequest;

import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.http.server.PathContainer;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerExecutionChain;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.RequestMappingInfoHandlerMapping;
import org.springframework.web.util.ServletRequestPathUtils;
import org.springframework.web.util.pattern.PathPattern;

/**
 * The Spring MVC handler methods annotated with {@link ThreadLane}, and the lane of a
 * request whose handler is one of them. A request is looked up only when its path matches
 * a pattern of an annotated handler; then the handler mappings are asked in the
 * dispatcher's order, as Spring Security asks them for its matchers, so that a more
 * specific route that is not annotated keeps its requests.
 */
public final class AnnotatedRoutes {

	static final AnnotatedRoutes NONE = new AnnotatedRoutes(List.of(), Map.of(), Map.of(), Set.of(), false);

	private final List<HandlerMapping> mappings;

	private final Map<Method, Lane> lanes;

	private final Map<Lane, List<String>> handlers;

	private final Set<PathPattern> patterns;

	/** Whether a mapping matches with patterns other than path patterns: every request is looked up. */
	private final boolean lookUpEvery;

	private AnnotatedRoutes(List<HandlerMapping> mappings, Map<Method, Lane> lanes, Map<Lane, List<String>> handlers,
			Set<PathPattern> patterns, boolean lookUpEvery) {
		this.mappings = mappings;
		this.lanes = lanes;
		this.handlers = handlers;
		this.patterns = patterns;
		this.lookUpEvery = lookUpEvery;
	}

	/**
	 * Finds the handler methods annotated with a lane and has the lanes use them.
	 * @param lanes the lanes
	 * @param mappings every handler mapping of the application, in the dispatcher's order
	 * @throws UnknownLaneException for an annotation that names no lane
	 */
	public static void annotate(Lanes lanes, List<HandlerMapping> mappings) {
		Map<Method, Lane> byMethod = new HashMap<>();
		Map<Lane, List<String>> handlers = new LinkedHashMap<>();
		Set<PathPattern> patterns = new LinkedHashSet<>();
		boolean lookUpEvery = false;
		for (HandlerMapping mapping : mappings) {
			if (!(mapping instanceof RequestMappingInfoHandlerMapping infoMapping)) {
				continue;
			}
			for (Map.Entry<RequestMappingInfo, HandlerMethod> entry : infoMapping.getHandlerMethods().entrySet()) {
				HandlerMethod handler = entry.getValue();
				ThreadLane annotation = annotation(handler);
				if (annotation == null) {
					continue;
				}
				Lane lane = lanes.get(annotation.value());
				if (lane == null) {
					throw new UnknownLaneException(annotation.value(), describe(handler), lanes.names());
				}
				if (byMethod.put(handler.getMethod(), lane) == null) {
					handlers.computeIfAbsent(lane, (key) -> new ArrayList<>()).add(describe(handler));
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
		handlers.values().forEach(Collections::sort);
		if (!byMethod.isEmpty()) {
			lanes.useAnnotated(new AnnotatedRoutes(List.copyOf(mappings), byMethod, handlers, patterns, lookUpEvery));
		}
	}

	/** The annotation of the method, else of its class. */
	private static ThreadLane annotation(HandlerMethod handler) {
		ThreadLane onMethod = AnnotatedElementUtils.findMergedAnnotation(handler.getMethod(), ThreadLane.class);
		return (onMethod != null) ? onMethod
				: AnnotatedElementUtils.findMergedAnnotation(handler.getBeanType(), ThreadLane.class);
	}

	private static String describe(HandlerMethod handler) {
		return handler.getBeanType().getSimpleName() + "#" + handler.getMethod().getName();
	}

	/**
	 * The path patterns of the annotated handlers.
	 * @return their text, or {@code null} when a handler mapping matches with other
	 * patterns, and any request may be an annotated handler's
	 */
	List<String> patterns() {
		return this.lookUpEvery ? null : this.patterns.stream().map(PathPattern::getPatternString).toList();
	}

	/** The handlers annotated with a lane, in alphabetical order. */
	List<String> handlers(Lane lane) {
		return this.handlers.getOrDefault(lane, List.of());
	}

	Lane laneOf(HttpServletRequest request, PathContainer path) {
		if (this.lanes.isEmpty() || !(this.lookUpEvery || matchesAnnotatedPattern(path))) {
			return null;
		}
		return (handler(request) instanceof HandlerMethod method) ? this.lanes.get(method.getMethod()) : null;
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
