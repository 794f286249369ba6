package io.github.threadmodel.autoconfigure;

import java.util.List;

import io.github.threadmodel.internal.line.SpringBootLine;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.core.task.TaskDecorator;
import org.springframework.core.task.support.CompositeTaskDecorator;

/**
 * The {@link TaskDecorator} beans as the starter applies them on both Boot lines, as
 * Spring Boot 4 applies them to its own application task executor: every one, in order
 * ({@code @Order}, {@code Ordered}), several as one {@link CompositeTaskDecorator}. Where
 * Spring Boot 3.5's own executor runs the application tasks instead, which applies a unique
 * decorator only, several stop startup rather than be dropped.
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

	/**
	 * Fails when Spring Boot's own application task executor, which runs the application
	 * tasks with {@code spring.task.execution.mode=force}, would apply none of the
	 * decorators: Spring Boot 3.5 applies a unique one (or the {@code @Primary} one) only.
	 * @param beanFactory the application's bean factory
	 * @param line the running Spring Boot line
	 * @throws UnappliedTaskDecoratorsException when it would apply none of several
	 */
	static void requireAppliedBySpringBoot(ListableBeanFactory beanFactory, SpringBootLine line) {
		if (line != SpringBootLine.BOOT_3 || beanFactory.getBeanProvider(TaskDecorator.class).getIfUnique() != null) {
			return;
		}
		String[] names = beanFactory.getBeanNamesForType(TaskDecorator.class);
		if (names.length > 1) {
			throw new UnappliedTaskDecoratorsException(List.of(names));
		}
	}

}
