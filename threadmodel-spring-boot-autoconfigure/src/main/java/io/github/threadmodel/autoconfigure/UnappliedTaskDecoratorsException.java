package io.github.threadmodel.autoconfigure;

import java.util.List;

/**
 * Thrown at startup when Spring Boot's own application task executor would run the
 * application tasks without the application's {@code TaskDecorator}s.
 */
class UnappliedTaskDecoratorsException extends RuntimeException {

	private final List<String> beanNames;

	UnappliedTaskDecoratorsException(List<String> beanNames) {
		super("Spring Boot's application task executor (spring.task.execution.mode=force) would apply none of the "
				+ "TaskDecorator beans " + beanNames);
		this.beanNames = beanNames;
	}

	/**
	 * The names of the decorator beans that would not be applied.
	 * @return the bean names
	 */
	List<String> getBeanNames() {
		return this.beanNames;
	}

}
