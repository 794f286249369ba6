package io.github.threadmodel.sample.web;

import java.util.Map;

import io.github.threadmodel.sample.support.BadRequestException;
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
 * a health check and a CPU-bound handler; one that pins a carrier on JDK 21; an echo that reads a request body; and
 * a request that holds heap.
 */
@RestController
public class BasicController {

	/** Upper bounds of {@code /heavy}'s parameters, so that one request cannot take the heap or a thread for long. */
	static final int MAX_HEAVY_KB = 64 * 1024;

	static final long MAX_HEAVY_MS = 60_000;

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
	 * Sleeps {@code ms} milliseconds holding a monitor: on JDK 21 a virtual thread pins its carrier meanwhile
	 * ({@link PinnedSleep}).
	 */
	@GetMapping(path = "/pinned", produces = MediaType.APPLICATION_JSON_VALUE)
	public Map<String, Object> pinned(@RequestParam(defaultValue = "50") long ms) throws InterruptedException {
		return PinnedSleep.sleep(ms);
	}

	/**
	 * Holds {@code kb} KB of heap for {@code ms} milliseconds, allocated in {@code steps} equal parts spread over that
	 * time (the first at once; {@code steps=1}: all at once), and answers how many bytes it held: a request that keeps
	 * what it allocates until it ends, as a traced request with a big body does.
	 */
	@GetMapping(path = "/heavy", produces = MediaType.TEXT_PLAIN_VALUE)
	public String heavy(@RequestParam(defaultValue = "512") int kb, @RequestParam(defaultValue = "2000") long ms,
			@RequestParam(defaultValue = "8") int steps) throws InterruptedException {
		if (kb < 0 || kb > MAX_HEAVY_KB || ms < 0 || ms > MAX_HEAVY_MS || steps < 1 || steps > Math.max(1, kb)) {
			throw new BadRequestException("kb must be 0 to " + MAX_HEAVY_KB + ", ms 0 to " + MAX_HEAVY_MS
					+ " and steps 1 to kb (at least 1 KB a part), got kb=" + kb + ", ms=" + ms + ", steps=" + steps);
		}
		byte[][] held = new byte[steps][];
		for (int i = 0; i < steps; i++) {
			held[i] = new byte[kb * 1024 / steps];
			Thread.sleep(ms / steps);
		}
		long bytes = 0;
		for (byte[] part : held) {
			bytes += part.length;
		}
		return String.valueOf(bytes);
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
