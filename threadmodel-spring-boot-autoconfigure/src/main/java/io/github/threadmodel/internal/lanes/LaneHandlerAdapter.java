package io.github.threadmodel.internal.lanes;

import java.util.HashMap;
import java.util.Map;

import io.github.threadmodel.internal.servers.TrampoliningExecutor;
import reactor.core.publisher.Mono;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.Ordered;
import org.springframework.core.task.TaskDecorator;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.reactive.DispatchExceptionHandler;
import org.springframework.web.reactive.HandlerAdapter;
import org.springframework.web.reactive.HandlerResult;
import org.springframework.web.reactive.result.method.annotation.RequestMappingHandlerAdapter;
import org.springframework.web.server.ServerWebExchange;

/**
 * Runs the blocking controller methods of a lane's WebFlux routes on the lane's executor.
 * WebFlux runs every blocking controller method (one that returns no reactive type) on
 * one executor, its blocking execution, which the starter points at the request executor;
 * Spring Framework offers no executor per route. So this adapter comes before WebFlux's
 * own {@link RequestMappingHandlerAdapter}: a request in a lane is handled by an adapter
 * configured as WebFlux's own (its readers, binding, argument resolvers, content types)
 * whose blocking execution is the lane's executor; every other request by WebFlux's
 * adapter, as without lanes. A controller method that returns a reactive type stays on the
 * event loop, in a lane or not.
 */
public final class LaneHandlerAdapter implements HandlerAdapter, DispatchExceptionHandler, Ordered {

	private final Lanes lanes;

	private final RequestMappingHandlerAdapter webFlux;

	private final Map<Lane, RequestMappingHandlerAdapter> byLane = new HashMap<>();

	/**
	 * Creates the adapter.
	 * @param lanes the lanes
	 * @param webFlux WebFlux's own adapter, configured
	 * @param context the application context
	 * @param taskDecorator the decorator of each request's blocking work, or {@code null}
	 * @throws Exception when an adapter for a lane cannot be set up
	 */
	public LaneHandlerAdapter(Lanes lanes, RequestMappingHandlerAdapter webFlux,
			ConfigurableApplicationContext context, TaskDecorator taskDecorator) throws Exception {
		this.lanes = lanes;
		this.webFlux = webFlux;
		for (Lane lane : lanes.all()) {
			RequestMappingHandlerAdapter adapter = new RequestMappingHandlerAdapter();
			adapter.setMessageReaders(webFlux.getMessageReaders());
			adapter.setWebBindingInitializer(webFlux.getWebBindingInitializer());
			adapter.setArgumentResolverConfigurer(webFlux.getArgumentResolverConfigurer());
			adapter.setContentTypeResolver(webFlux.getContentTypeResolver());
			adapter.setReactiveAdapterRegistry(webFlux.getReactiveAdapterRegistry());
			adapter.setBlockingExecutor(new TrampoliningExecutor(lane.executor(), taskDecorator));
			adapter.setApplicationContext(context);
			adapter.afterPropertiesSet();
			this.byLane.put(lane, adapter);
		}
	}

	/**
	 * Supports what WebFlux's adapter supports, when there are lanes: without, every request
	 * goes straight to WebFlux's adapter.
	 */
	@Override
	public boolean supports(Object handler) {
		return !this.byLane.isEmpty() && handler instanceof HandlerMethod && this.webFlux.supports(handler);
	}

	@Override
	public Mono<HandlerResult> handle(ServerWebExchange exchange, Object handler) {
		Lane lane = this.lanes.laneOf(exchange.getRequest().getPath().pathWithinApplication(),
				(HandlerMethod) handler);
		return ((lane != null) ? this.byLane.get(lane) : this.webFlux).handle(exchange, handler);
	}

	@Override
	public Mono<HandlerResult> handleError(ServerWebExchange exchange, Throwable ex) {
		return this.webFlux.handleError(exchange, ex);
	}

	/**
	 * Before WebFlux's adapters, which are not ordered.
	 */
	@Override
	public int getOrder() {
		return 0;
	}

}
