package io.github.threadmodel.sample.web;

import java.util.Map;

import io.github.threadmodel.sample.support.CpuReport;
import io.github.threadmodel.sample.support.Greeting;
import io.github.threadmodel.sample.support.SampleProperties;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The endpoints of the published benchmarks that need no back end: a greeting that blocks, a trivial handler,
 * a health check and a CPU-bound handler; and an echo that reads a request body.
 */
@RestController
public class BasicController {

	private final SampleProperties properties;

	public BasicController(SampleProperties properties) {
		this.properties = properties;
	}

	/** A random greeting, after blocking the request thread for {@code sample.greetings.delay}. */
	@GetMapping(path = "/greetings", produces = MediaType.TEXT_PLAIN_VALUE)
	public String greetings(@RequestParam(defaultValue = "World") String name) throws InterruptedException {
		Thread.sleep(this.properties.greetings().delay());
		return Greeting.randomFor(name);
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
		return CpuReport.spin(ms);
	}

	/**
	 * The request body, read whole on the request thread, as the answer: a client that sends its body slowly holds
	 * the request thread that long (load/probes_under_load.py's slow bodies).
	 */
	@PostMapping(path = "/echo", produces = MediaType.TEXT_PLAIN_VALUE)
	public String echo(@RequestBody String body) {
		return body;
	}

}
