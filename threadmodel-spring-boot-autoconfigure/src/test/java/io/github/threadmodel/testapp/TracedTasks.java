package io.github.threadmodel.testapp;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import org.slf4j.MDC;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.task.AsyncTaskExecutor;
import org.springframework.core.task.support.ContextPropagatingTaskDecorator;
import org.springframework.scheduling.annotation.Async;
import org.springframework.scheduling.annotation.EnableAsync;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.async.DeferredResult;
import org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody;

/**
 * An application with a tracer and a {@link ContextPropagatingTaskDecorator}, as Micrometer
 * Tracing's users have it, that answers, from every path by which work leaves the request
 * thread, the trace it sees there: {@code trace=<the tracer's> mdc=<the MDC's>
 * decorated=<whether the decorator ran> thread=<name>}. Added to the test application
 * with {@code spring.main.sources}.
 */
@Configuration(proxyBeanMethods = false)
@EnableAsync
public class TracedTasks {

	/**
	 * The paths of a servlet application, each handing the work over in its own way.
	 */
	public static final String[] SERVLET_PATHS = { "/context/async", "/context/callable", "/context/deferred",
			"/context/streaming" };

	/** Set while a task runs that the application's decorator decorated. */
	private static final ThreadLocal<Boolean> decorated = new ThreadLocal<>();

	/**
	 * The application's one decorator: Spring's {@link ContextPropagatingTaskDecorator},
	 * which also marks the work it decorated, so that the answers tell a decorated task from
	 * context that arrived another way (Reactor's context propagation, on WebFlux).
	 */
	@Bean
	ContextPropagatingTaskDecorator contextPropagatingTaskDecorator() {
		return new ContextPropagatingTaskDecorator() {

			@Override
			public Runnable decorate(Runnable runnable) {
				Runnable propagating = super.decorate(runnable);
				return () -> {
					decorated.set(true);
					try {
						propagating.run();
					}
					finally {
						decorated.remove();
					}
				};
			}

		};
	}

	@Bean
	SeenContext seenContext(ObjectProvider<Tracer> tracer) {
		return new SeenContext(tracer);
	}

	@Bean
	AsyncWork asyncWork(SeenContext seen) {
		return new AsyncWork(seen);
	}

	/**
	 * What the current thread sees of the trace.
	 */
	public static class SeenContext {

		private final ObjectProvider<Tracer> tracer;

		SeenContext(ObjectProvider<Tracer> tracer) {
			this.tracer = tracer;
		}

		String describe() {
			Span span = this.tracer.getObject().currentSpan();
			return "trace=" + ((span != null) ? span.context().traceId() : null) + " mdc=" + MDC.get("traceId")
					+ " decorated=" + Boolean.TRUE.equals(decorated.get()) + " thread="
					+ Thread.currentThread().getName();
		}

	}

	/**
	 * An {@code @Async} method.
	 */
	public static class AsyncWork {

		private final SeenContext seen;

		AsyncWork(SeenContext seen) {
			this.seen = seen;
		}

		@Async
		public CompletableFuture<String> seen() {
			return CompletableFuture.completedFuture(this.seen.describe());
		}

	}

	@RestController
	@ConditionalOnWebApplication(type = Type.SERVLET)
	static class ServletContextController {

		private final SeenContext seen;

		private final AsyncWork async;

		private final AsyncTaskExecutor taskExecutor;

		ServletContextController(SeenContext seen, AsyncWork async,
				@Qualifier("applicationTaskExecutor") AsyncTaskExecutor taskExecutor) {
			this.seen = seen;
			this.async = async;
			this.taskExecutor = taskExecutor;
		}

		@GetMapping("/context/request")
		String request() {
			return this.seen.describe();
		}

		@GetMapping("/context/async")
		String async() throws Exception {
			return this.async.seen().get(30, TimeUnit.SECONDS);
		}

		@GetMapping("/context/callable")
		Callable<String> callable() {
			return this.seen::describe;
		}

		@GetMapping("/context/deferred")
		DeferredResult<String> deferred() {
			DeferredResult<String> result = new DeferredResult<>();
			this.taskExecutor.execute(() -> result.setResult(this.seen.describe()));
			return result;
		}

		@GetMapping("/context/streaming")
		StreamingResponseBody streaming() {
			return (out) -> write(out, this.seen.describe());
		}

		private static void write(OutputStream out, String text) throws IOException {
			out.write(text.getBytes(StandardCharsets.UTF_8));
		}

	}

	@RestController
	@ConditionalOnWebApplication(type = Type.REACTIVE)
	static class BlockingContextController {

		private final SeenContext seen;

		BlockingContextController(SeenContext seen) {
			this.seen = seen;
		}

		/**
		 * Not a reactive type: WebFlux runs it with its blocking execution, off the event loop.
		 */
		@GetMapping("/context/blocking")
		String blocking() {
			return this.seen.describe();
		}

	}

}
