package io.github.threadmodel.autoconfigure;

import java.util.List;

import io.github.threadmodel.internal.line.SpringBootLine;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.core.task.TaskDecorator;
import org.springframework.core.task.support.CompositeTaskDecorator;

/**
 * The {@link TaskDecorator} beans as Spring Boot applies them to its own application task
 * executor on each line: on Boot 4, every one, in order (one {@link CompositeTaskDecorator}
 * when there are several); on Boot 3.5, a unique one only, none when there are several.
 */
final class TaskDecorators {

	private TaskDecorators() {
	}

	/**
	 * The decorator Spring Boot's own application task executor would get.
	 * @param decorators the application's decorator beans
	 * @param line the running Spring Boot line
	 * @return the decorator, or {@code null} for none
	 */
	static TaskDecorator of(ObjectProvider<TaskDecorator> decorators, SpringBootLine line) {
		if (line == SpringBootLine.BOOT_3) {
			return decorators.getIfUnique();
		}
		List<TaskDecorator> ordered = decorators.orderedStream().toList();
		if (ordered.size() == 1) {
			return ordered.get(0);
		}
		return ordered.isEmpty() ? null : new CompositeTaskDecorator(ordered);
	}

}
