package io.github.threadmodel.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains an invalid {@code app.threads.*} value when the application fails to start.
 */
class InvalidThreadModelPropertyFailureAnalyzer extends AbstractFailureAnalyzer<InvalidThreadModelPropertyException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InvalidThreadModelPropertyException cause) {
		String description = "The thread model cannot be configured: property '%s' has the invalid value '%s'."
			.formatted(cause.getProperty(), cause.getValue());
		String action = "Set '%s' to %s.".formatted(cause.getProperty(), cause.getAllowed());
		return new FailureAnalysis(description, action, cause);
	}

}
