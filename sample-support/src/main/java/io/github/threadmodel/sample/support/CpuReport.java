package io.github.threadmodel.sample.support;

import java.util.LinkedHashMap;
import java.util.Map;

/** What {@code /cpu?ms=N} does and answers in both samples. */
public final class CpuReport {

	/** Upper bound of {@code /cpu?ms=}, so that one request cannot hold a core for long. */
	public static final long MAX_MS = 10_000;

	private CpuReport() {
	}

	/**
	 * Busy-spins the calling thread for {@code ms} milliseconds of wall-clock time (no sleeping, no yielding),
	 * then describes the work and the thread that did it: {@code {"ms","elapsedMs","iterations","checksum",
	 * "thread","virtual"}}.
	 * @throws BadRequestException if {@code ms} is negative or above {@link #MAX_MS}
	 */
	public static Map<String, Object> spin(long ms) {
		if (ms < 0 || ms > MAX_MS) {
			throw new BadRequestException("ms must be between 0 and " + MAX_MS + ", got " + ms);
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
