package io.github.threadmodel.executor;

/**
 * The bounds of an adaptive concurrency limit on virtual threads ({@link AdaptiveLimit}):
 * the limit starts at what the heap's room holds (within the bounds), grows while tasks
 * wait and garbage collections show room in the heap, and falls below the tasks in flight
 * whenever a collection leaves the heap fuller than {@code heapThreshold}.
 *
 * @param minLimit the least the limit falls to
 * @param maxLimit the most it grows to
 * @param heapThreshold share (above 0, at most 1) of the maximum heap that, still used
 * after a garbage collection, counts as heap pressure
 * @since 0.1.0
 */
public record AdaptiveAdmission(int minLimit, int maxLimit, double heapThreshold) {

	/**
	 * Checks the bounds.
	 * @throws IllegalArgumentException when a bound is out of range
	 */
	public AdaptiveAdmission {
		if (minLimit < 1 || maxLimit < minLimit) {
			throw new IllegalArgumentException(
					"Limits must satisfy 1 <= minLimit <= maxLimit, not " + minLimit + " and " + maxLimit);
		}
		if (!(heapThreshold > 0 && heapThreshold <= 1)) {
			throw new IllegalArgumentException("heapThreshold must be above 0 and at most 1, not " + heapThreshold);
		}
	}

}
