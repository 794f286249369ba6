package io.github.threadmodel.autoconfigure;

import io.github.threadmodel.executor.ThreadModelChoice;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;
import org.springframework.core.io.support.SpringFactoriesLoader;
import org.springframework.core.io.support.SpringFactoriesLoader.ArgumentResolver;
import org.springframework.core.io.support.SpringFactoriesLoader.FailureHandler;

/**
 * Explains a value of {@code app.threads.model} or {@code app.threads.tasks.model} that
 * Spring Boot could not bind as it explains every other invalid {@code app.threads.*}
 * value: as an {@link InvalidConfigurationPropertyValueException}, analysed by Spring
 * Boot's own failure analyzers (the one for that exception is not public, so they are
 * loaded here as Spring Boot loads them), which name the value, where it came from, what
 * is allowed and the other property sources that set it too. Spring Boot's analysis of the
 * {@link BindException} itself would list the enum's constants in upper case. It comes
 * before Spring Boot's analyzers.
 */
class ThreadModelChoiceFailureAnalyzer extends AbstractFailureAnalyzer<BindException> implements Ordered {

	private static final Log logger = LogFactory.getLog(ThreadModelChoiceFailureAnalyzer.class);

	private final Environment environment;

	ThreadModelChoiceFailureAnalyzer(Environment environment) {
		this.environment = environment;
	}

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
		return SpringFactoriesLoader.forDefaultResourceLocation(getClass().getClassLoader())
			.load(FailureAnalyzer.class, ArgumentResolver.of(Environment.class, this.environment),
					FailureHandler.logging(logger))
			.stream()
			.filter((analyzer) -> !(analyzer instanceof ThreadModelChoiceFailureAnalyzer))
			.map((analyzer) -> analyzer.analyze(invalid))
			.filter((analysis) -> analysis != null)
			.findFirst()
			.orElse(null);
	}

}
