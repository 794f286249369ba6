package io.github.threadmodel.autoconfigure;

import java.util.List;

import io.github.threadmodel.executor.ThreadModelExecutor;
import io.github.threadmodel.executor.ThreadModelSwitcher;
import io.github.threadmodel.internal.lanes.Lane;
import io.github.threadmodel.internal.lanes.LaneHandlerAdapter;
import io.github.threadmodel.internal.lanes.Lanes;
import io.github.threadmodel.internal.lanes.ServletLanes;
import jakarta.servlet.Filter;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.task.TaskDecorator;
import org.springframework.web.reactive.result.method.RequestMappingInfoHandlerMapping;
import org.springframework.web.reactive.result.method.annotation.RequestMappingHandlerAdapter;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.util.pattern.PathPattern;

/**
 * Auto-configuration of lanes ({@code app.threads.lanes.*}): each lane's executor, and the
 * routes that run on it, by path and by the {@code @ThreadLane} annotation of their
 * controller method. On a servlet server the starter's servlet filter hands a lane's
 * requests to its executor ({@link ThreadModelOverloadAutoConfiguration}); on WebFlux a
 * {@link LaneHandlerAdapter} runs a lane's blocking controller methods on it. The endpoint
 * switches a lane ({@code {"lane":"<name>","model":"virtual"}}) through the
 * {@link ThreadModelSwitcher}.
 * @since 0.1.0
 */
@AutoConfiguration(after = ThreadModelAutoConfiguration.class, before = ThreadModelOverloadAutoConfiguration.class)
@ConditionalOnWebApplication
@ConditionalOnClass(PathPattern.class)
public final class ThreadModelLanesAutoConfiguration {

	/**
	 * The lanes, each with an executor of its own (threads named
	 * {@code lane-<name>-<model>-<n>}) that the switcher may switch, closed once the server
	 * has stopped.
	 */
	@Bean
	@ConditionalOnMissingBean
	Lanes threadModelLanes(ThreadModelSettings settings, ObjectProvider<ThreadModelSwitcher> switcher) {
		List<Lane> lanes = settings.lanes()
			.entrySet()
			.stream()
			.map((entry) -> new Lane(entry.getKey(),
					new ThreadModelExecutor(Lanes.threadNamePrefix(entry.getKey()),
							settings.laneExecutor(entry.getValue()), settings.laneOverload(entry.getValue())),
					entry.getValue().getPaths()))
			.toList();
		switcher.ifAvailable((available) -> lanes.forEach((lane) -> available.addLane(lane.name(), lane.executor())));
		return new Lanes(lanes);
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = Type.SERVLET)
	@ConditionalOnClass(Filter.class)
	static class ServletLanesConfiguration {

		/**
		 * Which lane a servlet request belongs to, for the starter's servlet filter.
		 */
		@Bean
		@ConditionalOnMissingBean
		ServletLanes threadModelServletLanes(Lanes lanes) {
			return new ServletLanes(lanes);
		}

		@Configuration(proxyBeanMethods = false)
		@ConditionalOnClass(HandlerMapping.class)
		static class AnnotatedServletLanesConfiguration {

			/**
			 * Finds the Spring MVC handler methods annotated with a lane once every handler
			 * mapping has registered its handlers; an annotation that names no lane stops
			 * startup.
			 */
			@Bean
			SmartInitializingSingleton threadModelAnnotatedLanes(ServletLanes lanes,
					ObjectProvider<HandlerMapping> mappings) {
				return () -> lanes.annotate(mappings.orderedStream().toList());
			}

		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = Type.REACTIVE)
	@ConditionalOnClass(RequestMappingHandlerAdapter.class)
	static class WebFluxLanesConfiguration {

		/**
		 * Runs each lane's blocking controller methods on its executor, with the
		 * {@link TaskDecorator} beans applied as to the request executor's.
		 */
		@Bean
		LaneHandlerAdapter threadModelLaneHandlerAdapter(Lanes lanes, RequestMappingHandlerAdapter webFlux,
				ConfigurableApplicationContext context, ObjectProvider<TaskDecorator> taskDecorators)
				throws Exception {
			return new LaneHandlerAdapter(lanes, webFlux, context, TaskDecorators.of(taskDecorators));
		}

		/**
		 * Finds the WebFlux handler methods annotated with a lane once every handler
		 * mapping has registered its handlers; an annotation that names no lane stops
		 * startup.
		 */
		@Bean
		SmartInitializingSingleton threadModelAnnotatedWebFluxLanes(Lanes lanes,
				ObjectProvider<RequestMappingInfoHandlerMapping> mappings) {
			return () -> lanes.annotate(mappings.orderedStream()
				.flatMap((mapping) -> mapping.getHandlerMethods().values().stream())
				.toList());
		}

	}

}
