package io.github.threadmodel.autoconfigure;

import java.util.List;

import io.github.threadmodel.executor.ThreadModelExecutor;
import io.github.threadmodel.executor.ThreadModelSwitcher;
import io.github.threadmodel.internal.lanes.AnnotatedRoutes;
import io.github.threadmodel.internal.lanes.Lane;
import io.github.threadmodel.internal.lanes.LaneExecutors;
import io.github.threadmodel.internal.lanes.Lanes;
import jakarta.servlet.Filter;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.util.pattern.PathPattern;

/**
 * Auto-configuration of lanes ({@code app.threads.lanes.*}): each lane's executor, and the
 * routes that run on it, by path and by the {@code @ThreadLane} annotation of their Spring
 * MVC handler. The starter's servlet filter hands a lane's requests to its executor
 * ({@link ThreadModelOverloadAutoConfiguration}); the endpoint switches a lane
 * ({@code {"lane":"<name>","model":"virtual"}}) through the {@link ThreadModelSwitcher}.
 * @since 0.1.0
 */
@AutoConfiguration(after = ThreadModelAutoConfiguration.class, before = ThreadModelOverloadAutoConfiguration.class)
@ConditionalOnWebApplication
public final class ThreadModelLanesAutoConfiguration {

	private static final Log logger = LogFactory.getLog(ThreadModelLanesAutoConfiguration.class);

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = Type.SERVLET)
	@ConditionalOnClass({ Filter.class, PathPattern.class })
	static class ServletLanesConfiguration {

		/**
		 * The lanes, each with an executor of its own (threads named
		 * {@code lane-<name>-<model>-<n>}) that the switcher may switch, closed once the
		 * server has stopped.
		 */
		@Bean
		@ConditionalOnMissingBean
		Lanes threadModelLanes(ThreadModelSettings settings, ObjectProvider<ThreadModelSwitcher> switcher) {
			List<Lane> lanes = settings.lanes()
				.entrySet()
				.stream()
				.map((entry) -> new Lane(entry.getKey(),
						new ThreadModelExecutor(LaneExecutors.threadNamePrefix(entry.getKey()),
								settings.laneExecutor(entry.getValue()), settings.laneOverload(entry.getValue())),
						entry.getValue().getPaths()))
				.toList();
			switcher.ifAvailable((available) -> lanes
				.forEach((lane) -> available.addLane(lane.name(), lane.executor())));
			return new Lanes(lanes);
		}

		/**
		 * The lanes' executors, for the parts of the starter that run on every stack
		 * (health, pinning, the drain at shutdown) and load no servlet type.
		 */
		@Bean
		@ConditionalOnMissingBean
		LaneExecutors threadModelLaneExecutors(Lanes lanes) {
			return lanes.executors();
		}

		@Configuration(proxyBeanMethods = false)
		@ConditionalOnClass(HandlerMapping.class)
		static class AnnotatedLanesConfiguration {

			/**
			 * Finds the handler methods annotated with a lane once every handler mapping
			 * has registered its handlers; an annotation that names no lane stops startup.
			 */
			@Bean
			SmartInitializingSingleton threadModelAnnotatedLanes(Lanes lanes, ObjectProvider<HandlerMapping> mappings) {
				return () -> AnnotatedRoutes.annotate(lanes, mappings.orderedStream().toList());
			}

		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = Type.REACTIVE)
	static class ReactiveLanesConfiguration {

		/**
		 * Says at startup that configured lanes hold no WebFlux request.
		 */
		@Bean
		SmartInitializingSingleton threadModelLanesOnWebFlux(ThreadModelSettings settings) {
			return () -> {
				if (!settings.lanes().isEmpty()) {
					logger.warn("app.threads.lanes %s: lanes hold servlet requests only (Tomcat, Jetty, Undertow); "
						.formatted(settings.lanes().keySet()) + "on WebFlux every request stays where it runs now");
				}
			};
		}

	}

}
