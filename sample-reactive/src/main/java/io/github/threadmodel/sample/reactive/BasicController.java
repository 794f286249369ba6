package io.github.threadmodel.sample.reactive;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import reactor.core.publisher.Mono;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The endpoints of the published benchmarks that need no back end: a greeting after a non-blocking delay, a
 * trivial handler, a health check and a CPU-bound handler.
 */
@RestController
public class BasicController {

	static final List<String> WORDS = List.of("Hello", "Hi", "Olá", "Oi", "Hallo");

	/** Upper bound of {@code /cpu?ms=}, so that one request cannot hold a core for long. */
	static final long MAX_CPU_MS = 10_000;

	private final SampleProperties properties;

	public BasicController(SampleProperties properties) {
		this.properties = properties;
	}

	/** A random greeting after {@code sample.greetings.delay}, without holding any thread while waiting. */
	@GetMapping(path = "/greetings", produces = MediaType.TEXT_PLAIN_VALUE)
	public Mono<String> greetings(@RequestParam(defaultValue = "World") String name) {
		return Mono.delay(this.properties.greetings().delay())
			.map((tick) -> WORDS.get(ThreadLocalRandom.current().nextInt(WORDS.size())) + " " + name + "!");
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
		if (ms < 0 || ms > MAX_CPU_MS) {
			throw new BadRequestException("ms must be between 0 and " + MAX_CPU_MS + ", got " + ms);
		}
		CpuBurner.Result result = CpuBurner.burn(ms);
		Thread thread = Thread.currentThread();
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("ms", ms);
		body.put("elapsedMs", result.elapsedNanos() / 1_000_000.0);
		body.put("iterations", result.iterations());
		body.put("checksum", result.checksum());
		body.put("thread", thread.getName());
		body.put("virtual", thread.isVirtual());
		return body;
	}

}
