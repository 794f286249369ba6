package io.github.threadmodel.sample.support;

/** Keeps the calling thread on a CPU for a while, doing arithmetic the JIT cannot remove. */
public final class CpuBurner {

	private CpuBurner() {
	}

	public record Result(long iterations, long checksum, long elapsedNanos) {
	}

	public static Result burn(long millis) {
		long start = System.nanoTime();
		long deadline = start + millis * 1_000_000L;
		long x = start | 1;
		long iterations = 0;
		long now;
		do {
			// xorshift rounds between clock reads: the loop never blocks, sleeps or yields.
			for (int i = 0; i < 256; i++) {
				x ^= x << 13;
				x ^= x >>> 7;
				x ^= x << 17;
			}
			iterations++;
			now = System.nanoTime();
		}
		while (now < deadline);
		return new Result(iterations, x, now - start);
	}

}
