package io.github.threadmodel.internal.lanes;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Says which {@code @ThreadLane} annotation names no lane, and which lanes there are.
 */
class UnknownLaneFailureAnalyzer extends AbstractFailureAnalyzer<UnknownLaneException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, UnknownLaneException cause) {
		String description = "@ThreadLane(\"%s\") on %s names a lane that is not configured. Configured lanes: %s."
			.formatted(cause.getLane(), cause.getHandler(),
					cause.getLanes().isEmpty() ? "none" : String.join(", ", cause.getLanes()));
		String action = ("Configure the lane (app.threads.lanes.%s.model=platform, and its limits), or name one of "
				+ "the configured lanes in the annotation.").formatted(cause.getLane());
		return new FailureAnalysis(description, action, cause);
	}

}
