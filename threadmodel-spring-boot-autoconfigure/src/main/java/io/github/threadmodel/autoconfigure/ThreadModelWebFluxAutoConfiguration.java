package io.github.threadmodel.autoconfigure;

import io.github.threadmodel.internal.servers.ThreadModelWebFluxConfigurer;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.core.task.TaskDecorator;
import org.springframework.web.reactive.config.WebFluxConfigurer;

/**
 * WebFlux keeps I/O and reactive controller methods on its event loops; controller
 * methods with other return types block, so they run on the request executor. Only
 * Spring Framework's API is involved, the same on both Boot lines.
 * @since 0.1.0
 */
@AutoConfiguration(after = ThreadModelAutoConfiguration.class)
@ConditionalOnClass(WebFluxConfigurer.class)
@ConditionalOnWebApplication(type = Type.REACTIVE)
public final class ThreadModelWebFluxAutoConfiguration {

	/**
	 * Blocking controller methods get the {@link TaskDecorator} beans as the application
	 * tasks get them ({@link TaskDecorators}), as Spring Boot's own blocking execution gets
	 * them through its application task executor.
	 */
	@Bean
	ThreadModelWebFluxConfigurer threadModelWebFluxConfigurer(ThreadModelExecutors executors,
			ObjectProvider<TaskDecorator> taskDecorators) {
		return new ThreadModelWebFluxConfigurer(executors.requests(), TaskDecorators.of(taskDecorators));
	}

}
