package io.github.threadmodel.autoconfigure;

import java.util.List;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.core.task.TaskDecorator;
import org.springframework.core.task.support.CompositeTaskDecorator;

/**
 * The {@link TaskDecorator} beans as the starter applies them on both Boot lines, as
 * Spring Boot 4 applies them to its own application task executor: every one, in order
 * ({@code @Order}, {@code Ordered}), several as one {@link CompositeTaskDecorator}.
 */
final class TaskDecorators {

	private TaskDecorators() {
	}

	/**
	 * The decorator of the tasks the starter's executors are handed.
	 * @param decorators the application's decorator beans
	 * @return the decorator, or {@code null} for none
	 */
	static TaskDecorator of(ObjectProvider<TaskDecorator> decorators) {
		List<TaskDecorator> ordered = decorators.orderedStream().toList();
		if (ordered.size() == 1) {
			return ordered.get(0);
		}
		return ordered.isEmpty() ? null : new CompositeTaskDecorator(ordered);
	}

}
