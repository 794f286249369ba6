package io.github.threadmodel.autoconfigure;

import io.github.threadmodel.internal.requests.RequestCountingDecorator;
import io.github.threadmodel.internal.requests.RequestCounts;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import reactor.core.publisher.Mono;

import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.http.server.reactive.MockServerHttpResponse;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebHandler;
import org.springframework.web.server.adapter.WebHttpHandlerBuilder;

/**
 * One {@code GET /ping} through WebFlux's {@link HttpHandler} as {@code WebHttpHandlerBuilder}
 * builds it for an application (the exchange, its session and codecs, the filter chain, the
 * error handling) down to a handler that writes one byte; no server and no
 * {@code DispatcherHandler}, so that what the variants add is a larger share of the time:
 * <ul>
 * <li>{@code plain}: nothing added, as plain Spring Boot;
 * <li>{@code starter}: the starter's decorators of the {@code HttpHandler}, the request
 * count and the switch body limit, as its auto-configuration adds them;
 * <li>{@code webFilters}: the same two as {@code WebFilter}s, as the starter added them
 * before: a count on entry and at the end of the chain, and a filter that looks at the
 * method and the path. What any two filters cost: Spring's chain adds a deferred call and a
 * checkpoint named by a string built per request for each one.
 * </ul>
 * Run: {@code ./mvnw -Pjmh -pl threadmodel-spring-boot-starter test-compile exec:exec -Djmh.args="-prof gc"}, after
 * {@code ./mvnw install -DskipTests}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 2, jvmArgsAppend = "-Xmx256m")
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class WebFluxRequestBenchmark {

	private static final byte[] ONE = "1".getBytes(StandardCharsets.US_ASCII);

	@Param({ "plain", "starter", "webFilters" })
	public String variant;

	private HttpHandler handler;

	@Setup(Level.Trial)
	public void build() {
		WebHttpHandlerBuilder builder = WebHttpHandlerBuilder.webHandler(ping());
		RequestCounts counts = new RequestCounts();
		switch (this.variant) {
			case "plain" -> {
			}
			// in the order the application context gives them: the count, ordered last, innermost
			case "starter" -> builder.httpHandlerDecorator(new SwitchBodyLimitDecorator(new SwitchBodyLimit(() -> null)))
				.httpHandlerDecorator(new RequestCountingDecorator(counts));
			case "webFilters" -> builder.filters((filters) -> {
				filters.add(countingFilter(counts));
				filters.add(methodAndPathFilter());
			});
			default -> throw new IllegalArgumentException("Unknown variant " + this.variant);
		}
		this.handler = builder.build();
	}

	@Benchmark
	public MockServerHttpResponse get() {
		MockServerHttpResponse response = new MockServerHttpResponse();
		this.handler.handle(MockServerHttpRequest.get("/ping").build(), response).block();
		return response;
	}

	private static WebHandler ping() {
		return (exchange) -> {
			ServerHttpResponse response = exchange.getResponse();
			response.getHeaders().setContentType(MediaType.TEXT_PLAIN);
			return response.writeWith(Mono.just(response.bufferFactory().wrap(ONE)));
		};
	}

	private static WebFilter countingFilter(RequestCounts counts) {
		return (exchange, chain) -> {
			counts.onReceived();
			return Mono.defer(() -> chain.filter(exchange)).doFinally((signal) -> counts.onCompleted());
		};
	}

	private static WebFilter methodAndPathFilter() {
		return (exchange, chain) -> {
			String method = exchange.getRequest().getMethod().name();
			String path = exchange.getRequest().getPath().pathWithinApplication().value();
			return ("POST".equals(method) && path.endsWith("/threadmodel")) ? Mono.empty() : chain.filter(exchange);
		};
	}

}
