package io.github.threadmodel.autoconfigure;

import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.origin.Origin;
import org.springframework.core.Ordered;

/**
 * Explains a value of {@code app.threads.model} or {@code app.threads.tasks.model} that
 * Spring Boot could not bind as it explains every other invalid {@code app.threads.*}
 * value (the wording of its analysis of an {@link InvalidConfigurationPropertyValueException},
 * which is not public): Spring Boot's own analysis of the {@link BindException} would list
 * the enum's constants in upper case. It comes before Spring Boot's analyzers.
 */
class ThreadModelChoiceFailureAnalyzer extends AbstractFailureAnalyzer<BindException> implements Ordered {

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, BindException cause) {
		InvalidConfigurationPropertyValueException invalid = ThreadModelPropertiesCheck.invalidModel(cause);
		if (invalid == null) {
			return null;
		}
		Origin origin = Origin.from(cause.getProperty());
		String description = "Invalid value '%s' for configuration property '%s'%s. Validation failed for the following reason:%n%n%s"
			.formatted(invalid.getValue(), invalid.getName(),
					(origin != null) ? " (originating from '" + origin + "')" : "", invalid.getReason());
		return new FailureAnalysis(description, "Review the value of the property with the provided reason.", cause);
	}

}
