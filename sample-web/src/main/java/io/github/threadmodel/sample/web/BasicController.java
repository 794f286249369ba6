package io.github.threadmodel.sample.web;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The endpoints of the published benchmarks that need no back end: a greeting that blocks, a trivial handler,
 * a health check and a CPU-bound handler.
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

	/** A random greeting, after blocking the request thread for {@code sample.greetings.delay}. */
	@GetMapping(path = "/greetings", produces = MediaType.TEXT_PLAIN_VALUE)
	public String greetings(@RequestParam(defaultValue = "World") String name) throws InterruptedException {
		Thread.sleep(this.properties.greetings().delay());
		return WORDS.get(ThreadLocalRandom.current().nextInt(WORDS.size())) + " " + name + "!";
	}

	/** The trivial, non-blocking handler. */
	@GetMapping(path = "/ping", produces = MediaType.TEXT_PLAIN_VALUE)
	public String ping() {
		return "1";
	}

	@GetMapping(path = "/health", produces = MediaType.APPLICATION_JSON_VALUE)
	public Map<String, String> health() {
		return Map.of("health", "ok");
	}

	/** Busy-spins the request thread for {@code ms} milliseconds of wall-clock time (no sleeping, no yielding). */
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
