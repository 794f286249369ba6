package io.github.threadmodel.internal.line;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Names the starter to use when the application runs the other Spring Boot line's.
 */
class WrongSpringBootLineFailureAnalyzer extends AbstractFailureAnalyzer<WrongSpringBootLineException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, WrongSpringBootLineException cause) {
		String description = "The thread-model starter does not fit this application: %s is for Spring Boot %s, "
			.formatted(cause.getStarterLine().artifactId(), cause.getStarterLine().versions())
				+ "but the application runs Spring Boot %s.".formatted(cause.getRunningVersion());
		String action = "Replace the dependency io.github.threadmodel:%s with io.github.threadmodel:%s (the starter for Spring Boot %s), same version."
			.formatted(cause.getStarterLine().artifactId(), cause.getRunningLine().artifactId(),
					cause.getRunningLine().versions());
		return new FailureAnalysis(description, action, cause);
	}

}
