package io.github.threadmodel.executor;

import io.github.threadmodel.executor.ExecutorSettings.AdaptiveAdmission;

/**
 * How a {@link ThreadModelExecutor} on virtual threads admits tasks, and where its limit
 * stands.
 *
 * @param mode {@code adaptive} (the limit follows the heap: {@link AdaptiveAdmission}),
 * {@code fixed} (a fixed concurrency limit) or {@code unlimited}
 * @param algorithm the adaptive limit's algorithm ({@code heap}), or {@code null}
 * @param limit the most tasks that may run at once now, or {@code null} when unlimited
 * @param inFlight tasks holding a permit now (tasks running, unless unlimited: then 0)
 * @param minLimit the least the adaptive limit falls to, or {@code null}
 * @param maxLimit the most the adaptive limit grows to, or {@code null}
 * @param heapThreshold the share of the heap that, used after a garbage collection,
 * decreases the adaptive limit, or {@code null}
 * @param heapUsedAfterGc the share of the heap used after the last garbage collection, or
 * {@code null} before the first one or without an adaptive limit
 * @param heapDecreases garbage collections that found the heap above the threshold and
 * decreased the limit
 * @since 0.1.0
 */
public record AdmissionStatus(String mode, String algorithm, Integer limit, int inFlight, Integer minLimit,
		Integer maxLimit, Double heapThreshold, Double heapUsedAfterGc, long heapDecreases) {

	static final AdmissionStatus UNLIMITED = new AdmissionStatus("unlimited", null, null, 0, null, null, null, null,
			0);

	static AdmissionStatus of(Permits permits) {
		if (permits instanceof AdaptiveLimit adaptive) {
			AdaptiveAdmission settings = adaptive.settings();
			return new AdmissionStatus("adaptive", HeapLimit.ALGORITHM, adaptive.limit(), adaptive.inFlight(),
					settings.minLimit(), settings.maxLimit(), settings.heapThreshold(), adaptive.heapUsedAfterGc(),
					adaptive.heapDecreases());
		}
		if (permits != null) {
			return new AdmissionStatus("fixed", null, permits.limit(), permits.inFlight(), null, null, null, null, 0);
		}
		return UNLIMITED;
	}

}
