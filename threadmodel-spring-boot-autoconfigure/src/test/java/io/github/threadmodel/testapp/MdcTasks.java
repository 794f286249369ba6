package io.github.threadmodel.testapp;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.reactivestreams.Publisher;
import org.slf4j.MDC;
import reactor.core.publisher.Mono;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.core.task.AsyncTaskExecutor;
import org.springframework.core.task.TaskDecorator;
import org.springframework.scheduling.annotation.Async;
import org.springframework.scheduling.annotation.EnableAsync;
import org.springframework.stereotype.Component;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.async.DeferredResult;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody;

/**
 * An application that keeps a key of its own in the MDC, without a tracer: a filter puts
 * the request's {@value #HEADER} there on the request thread, and the application's own
 * {@link TaskDecorator} copies the MDC into the tasks handed over from it. A second
 * decorator (it only marks the tasks it ran) makes them several, which Spring Boot 3.5's
 * own executor would not apply at all. It answers, from every path by which work leaves the
 * request thread, {@code requestId=<the MDC's> marked=<whether the second decorator ran>
 * thread=<name>}. Added to a test application with {@code @SpringBootTest(classes = ...)}.
 */
@Configuration(proxyBeanMethods = false)
@EnableAsync
public class MdcTasks {

	/** The request header the filters put in the MDC. */
	public static final String HEADER = "X-Request-Id";

	/** The application's MDC key. */
	public static final String KEY = "requestId";

	/**
	 * The paths of a servlet application, each handing the work over in its own way.
	 */
	public static final String[] SERVLET_PATHS = { "/mdc/async", "/mdc/callable", "/mdc/deferred",
			"/mdc/streaming" };

	/** Set while a task runs that the second decorator decorated. */
	private static final ThreadLocal<Boolean> marked = new ThreadLocal<>();

	/**
	 * The application's decorator: the caller's MDC, as it was when the task was handed
	 * over, for as long as the task runs.
	 */
	@Bean
	@Order(1)
	TaskDecorator mdcTaskDecorator() {
		return (runnable) -> {
			Map<String, String> caller = MDC.getCopyOfContextMap();
			return () -> {
				Map<String, String> own = MDC.getCopyOfContextMap();
				setMdc(caller);
				try {
					runnable.run();
				}
				finally {
					setMdc(own);
				}
			};
		};
	}

	@Bean
	@Order(2)
	TaskDecorator markingTaskDecorator() {
		return (runnable) -> () -> {
			marked.set(true);
			try {
				runnable.run();
			}
			finally {
				marked.remove();
			}
		};
	}

	@Bean
	AsyncMdc asyncMdc() {
		return new AsyncMdc();
	}

	private static void setMdc(Map<String, String> context) {
		if (context != null) {
			MDC.setContextMap(context);
		}
		else {
			MDC.clear();
		}
	}

	static String seen() {
		return "requestId=" + MDC.get(KEY) + " marked=" + Boolean.TRUE.equals(marked.get()) + " thread="
				+ Thread.currentThread().getName();
	}

	/**
	 * An {@code @Async} method.
	 */
	public static class AsyncMdc {

		@Async
		public CompletableFuture<String> seen() {
			return CompletableFuture.completedFuture(MdcTasks.seen());
		}

	}

	@Component
	@ConditionalOnWebApplication(type = Type.SERVLET)
	static class MdcFilter extends OncePerRequestFilter {

		@Override
		protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
				throws ServletException, IOException {
			MDC.put(KEY, request.getHeader(HEADER));
			try {
				chain.doFilter(request, response);
			}
			finally {
				MDC.remove(KEY);
			}
		}

	}

	@RestController
	@ConditionalOnWebApplication(type = Type.SERVLET)
	static class ServletMdcController {

		private final AsyncMdc async;

		private final AsyncTaskExecutor taskExecutor;

		ServletMdcController(AsyncMdc async, @Qualifier("applicationTaskExecutor") AsyncTaskExecutor taskExecutor) {
			this.async = async;
			this.taskExecutor = taskExecutor;
		}

		@GetMapping("/mdc/async")
		String async() throws Exception {
			return this.async.seen().get(30, TimeUnit.SECONDS);
		}

		@GetMapping("/mdc/callable")
		Callable<String> callable() {
			return MdcTasks::seen;
		}

		@GetMapping("/mdc/deferred")
		DeferredResult<String> deferred() {
			DeferredResult<String> result = new DeferredResult<>();
			this.taskExecutor.execute(() -> result.setResult(seen()));
			return result;
		}

		@GetMapping("/mdc/streaming")
		StreamingResponseBody streaming() {
			return (out) -> out.write(seen().getBytes(StandardCharsets.UTF_8));
		}

	}

	/**
	 * The MDC belongs to a thread: on WebFlux it holds on the event loop while the rest of
	 * the chain is subscribed there, which is when WebFlux hands a blocking controller
	 * method over.
	 */
	@Component
	@ConditionalOnWebApplication(type = Type.REACTIVE)
	static class MdcWebFilter implements WebFilter {

		@Override
		public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
			String requestId = exchange.getRequest().getHeaders().getFirst(HEADER);
			Mono<Void> rest = chain.filter(exchange);
			return Mono.fromDirect((Publisher<Void>) (subscriber) -> {
				MDC.put(KEY, requestId);
				try {
					rest.subscribe(subscriber);
				}
				finally {
					MDC.remove(KEY);
				}
			});
		}

	}

	@RestController
	@ConditionalOnWebApplication(type = Type.REACTIVE)
	static class BlockingMdcController {

		/**
		 * Not a reactive type: WebFlux runs it with its blocking execution, off the event loop.
		 */
		@GetMapping("/mdc/blocking")
		String blocking() {
			return seen();
		}

	}

}
