package io.github.threadmodel.autoconfigure;

import io.github.threadmodel.actuate.ThreadModelDescriptor.ExecutorDescriptor;
import io.github.threadmodel.actuate.ThreadModelDescriptor.FlavourDescriptor;
import io.github.threadmodel.actuate.ThreadModelDescriptor.RuntimeDescriptor;
import io.github.threadmodel.actuate.ThreadModelDescriptor.SchedulerDescriptor;
import io.github.threadmodel.actuate.ThreadModelDescriptor.StartupDescriptor;
import io.github.threadmodel.actuate.ThreadModelDescriptor;
import io.github.threadmodel.actuate.ThreadModelEndpoint.SwitchRefused;
import io.github.threadmodel.actuate.ThreadModelEndpoint;
import io.github.threadmodel.autoconfigure.ThreadModelEndpointAutoConfiguration;
import org.junit.jupiter.api.Test;

import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.context.aot.ApplicationContextAotGenerator;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.javapoet.ClassName;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ThreadModelEndpointRuntimeHints}.
 */
class ThreadModelEndpointRuntimeHintsTests {

	@Test
	void registersEveryTypeOfTheEndpointsBodiesForJson() {
		RuntimeHints hints = new RuntimeHints();
		new ThreadModelEndpointRuntimeHints().registerHints(hints, getClass().getClassLoader());
		assertBodiesRegistered(hints);
	}

	@Test
	void aheadOfTimeProcessingOfAnApplicationWithTheEndpointPicksThemUp() {
		// What process-aot does for a user's application: no configuration of theirs needed.
		try (GenericApplicationContext context = new GenericApplicationContext()) {
			context.registerBean(ThreadModelEndpointAutoConfiguration.class);
			DefaultGenerationContext generation = new DefaultGenerationContext(
					new ClassNameGenerator(ClassName.get("com.example", "App")), new InMemoryGeneratedFiles());
			new ApplicationContextAotGenerator().processAheadOfTime(context, generation);
			assertBodiesRegistered(generation.getRuntimeHints());
		}
	}

	private static void assertBodiesRegistered(RuntimeHints hints) {
		for (Class<?> type : new Class<?>[] { ThreadModelDescriptor.class, ExecutorDescriptor.class,
				RuntimeDescriptor.class, FlavourDescriptor.class, StartupDescriptor.class, SchedulerDescriptor.class,
				SwitchRefused.class }) {
			assertThat(RuntimeHintsPredicates.reflection().onType(type)).as(type.getName()).accepts(hints);
		}
		// Jackson reads a record's components through its accessors.
		assertThat(RuntimeHintsPredicates.reflection().onMethod(ThreadModelDescriptor.class, "model").invoke())
			.accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethod(FlavourDescriptor.class, "aotCache").invoke())
			.accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethod(SwitchRefused.class, "error").invoke())
			.accepts(hints);
	}

}
