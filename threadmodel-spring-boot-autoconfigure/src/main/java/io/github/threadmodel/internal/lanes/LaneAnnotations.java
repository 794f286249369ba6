package io.github.threadmodel.internal.lanes;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.github.threadmodel.lanes.ThreadLane;

import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.web.method.HandlerMethod;

/**
 * The handler methods annotated with {@link ThreadLane} (on the method, else on its
 * class), and their lanes, for Spring MVC and WebFlux alike: both describe a controller
 * method with the same {@link HandlerMethod}.
 */
final class LaneAnnotations {

	static final LaneAnnotations NONE = new LaneAnnotations(Map.of(), Map.of());

	private final Map<Method, Lane> byMethod;

	private final Map<Lane, List<String>> handlers;

	private LaneAnnotations(Map<Method, Lane> byMethod, Map<Lane, List<String>> handlers) {
		this.byMethod = byMethod;
		this.handlers = handlers;
	}

	/**
	 * Finds the annotated handler methods among the given ones.
	 * @param lanes the lanes
	 * @param handlerMethods the handler methods
	 * @return the annotated ones
	 * @throws UnknownLaneException for an annotation that names no lane
	 */
	static LaneAnnotations of(Lanes lanes, Collection<HandlerMethod> handlerMethods) {
		Map<Method, Lane> byMethod = new HashMap<>();
		Map<Lane, List<String>> handlers = new LinkedHashMap<>();
		for (HandlerMethod handler : handlerMethods) {
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
		}
		handlers.values().forEach(Collections::sort);
		return new LaneAnnotations(byMethod, handlers);
	}

	/** The annotation of the method, else of its class. */
	static ThreadLane annotation(HandlerMethod handler) {
		ThreadLane onMethod = AnnotatedElementUtils.findMergedAnnotation(handler.getMethod(), ThreadLane.class);
		return (onMethod != null) ? onMethod
				: AnnotatedElementUtils.findMergedAnnotation(handler.getBeanType(), ThreadLane.class);
	}

	private static String describe(HandlerMethod handler) {
		return handler.getBeanType().getSimpleName() + "#" + handler.getMethod().getName();
	}

	/** The lane of a handler method, or {@code null}. */
	Lane laneOf(Method method) {
		return this.byMethod.get(method);
	}

	/** The handlers annotated with a lane, in alphabetical order. */
	List<String> handlers(Lane lane) {
		return this.handlers.getOrDefault(lane, List.of());
	}

}
