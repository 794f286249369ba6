package io.github.threadmodel.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Says why the application's {@code TaskDecorator}s would not be applied and how to have
 * them applied.
 */
class UnappliedTaskDecoratorsFailureAnalyzer extends AbstractFailureAnalyzer<UnappliedTaskDecoratorsException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, UnappliedTaskDecoratorsException cause) {
		String description = ("Spring Boot's own application task executor runs the application tasks "
				+ "(spring.task.execution.mode=force), and on Spring Boot 3.5 it applies a TaskDecorator only when "
				+ "there is one: none of the application's %d TaskDecorator beans (%s) would run around @Async "
				+ "methods and Spring MVC's async requests.")
			.formatted(cause.getBeanNames().size(), String.join(", ", cause.getBeanNames()));
		String action = "Remove spring.task.execution.mode=force, so that the thread-model starter's application "
				+ "task executor applies every TaskDecorator bean, in order; or keep one TaskDecorator bean (for "
				+ "example a CompositeTaskDecorator of the others, which are then not beans), or mark the one to "
				+ "apply @Primary.";
		return new FailureAnalysis(description, action, cause);
	}

}
