package io.github.threadmodel.sample.reactive;

import java.util.Map;

import io.github.threadmodel.sample.support.CpuReport;
import io.github.threadmodel.sample.support.Greeting;
import io.github.threadmodel.sample.support.SampleProperties;
import reactor.core.publisher.Mono;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The endpoints of the published benchmarks that need no back end: a greeting after a non-blocking delay, a
 * trivial handler, a health check and a CPU-bound handler; and a greeting that blocks, as sample-web's does.
 */
@RestController
public class BasicController {

	private final SampleProperties properties;

	public BasicController(SampleProperties properties) {
		this.properties = properties;
	}

	/** A random greeting after {@code sample.greetings.delay}, without holding any thread while waiting. */
	@GetMapping(path = "/greetings", produces = MediaType.TEXT_PLAIN_VALUE)
	public Mono<String> greetings(@RequestParam(defaultValue = "World") String name) {
		return Mono.delay(this.properties.greetings().delay())
			.map((tick) -> Greeting.randomFor(name));
	}

	/**
	 * A random greeting after blocking for {@code sample.greetings.delay}, as sample-web's {@code /greetings} does.
	 * It returns a plain value, so WebFlux runs it on the starter's request executor, where it holds a request thread
	 * (or an admission turn) while it sleeps, without using a CPU.
	 */
	@GetMapping(path = "/greetings/blocking", produces = MediaType.TEXT_PLAIN_VALUE)
	public String blockingGreetings(@RequestParam(defaultValue = "World") String name) throws InterruptedException {
		Thread.sleep(this.properties.greetings().delay());
		return Greeting.randomFor(name);
	}

	/** The trivial handler: answers on the event loop. */
	@GetMapping(path = "/ping", produces = MediaType.TEXT_PLAIN_VALUE)
	public Mono<String> ping() {
		return Mono.just("1");
	}

	@GetMapping(path = "/health", produces = MediaType.APPLICATION_JSON_VALUE)
	public Mono<Map<String, String>> health() {
		return Mono.just(Map.of("health", "ok"));
	}

	/**
	 * Busy-spins for {@code ms} milliseconds of wall-clock time. It returns a plain value, not a {@code Mono}, so
	 * WebFlux runs it off the event loop, on the starter's request executor: a platform or a virtual thread as
	 * the model says. That is where the lack of time slicing of virtual threads shows.
	 */
	@GetMapping(path = "/cpu", produces = MediaType.APPLICATION_JSON_VALUE)
	public Map<String, Object> cpu(@RequestParam(defaultValue = "20") long ms) {
		return CpuReport.spin(ms);
	}

}
