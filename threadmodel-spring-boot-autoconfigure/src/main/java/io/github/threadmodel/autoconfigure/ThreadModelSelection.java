package io.github.threadmodel.autoconfigure;

import io.github.threadmodel.executor.ThreadModel;
import io.github.threadmodel.executor.ThreadModelChoice;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.boot.autoconfigure.condition.ConditionMessage;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.handler.IgnoreErrorsBindHandler;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * The thread models in force at startup and where the server's came from, chosen here
 * and nowhere else: {@code app.threads.model} wins; when it is unset,
 * {@code spring.threads.virtual.enabled=true} means virtual; otherwise platform.
 * {@code auto} starts on virtual threads, which serve blocking and light requests at
 * least as well as platform threads from the first request; CPU-bound requests that
 * starve them show within a window (see {@code AutoThreadModelPolicy}).
 *
 * @param model the model of the web server's request handling
 * @param source the property that chose it, {@value #AUTO_SOURCE}, or {@code default}
 * @param taskModel the model of the application task executor
 */
record ThreadModelSelection(ThreadModel model, String source, ThreadModel taskModel) {

	static final String MODEL_PROPERTY = "app.threads.model";

	static final String SPRING_VIRTUAL_PROPERTY = "spring.threads.virtual.enabled";

	/**
	 * The source of the model when auto chooses it.
	 */
	static final String AUTO_SOURCE = "app.threads.model=auto";

	private static final Log logger = LogFactory.getLog(ThreadModelSelection.class);

	/**
	 * The models the properties choose.
	 * @param properties the bound {@code app.threads.*} values
	 * @param environment where {@code spring.threads.virtual.enabled} is read
	 * @return the selection
	 */
	static ThreadModelSelection of(ThreadModelProperties properties, Environment environment) {
		ThreadModelPropertiesCheck.checkWrittenModel(environment);
		ThreadModelChoice written = properties.getModel();
		Boolean springVirtual = environment.getProperty(SPRING_VIRTUAL_PROPERTY, Boolean.class);
		ThreadModelChoice choice = serverChoice(written, springVirtual);
		String source;
		if (written == ThreadModelChoice.AUTO) {
			source = AUTO_SOURCE;
		}
		else if (written != null) {
			if (springVirtual != null && springVirtual != (written == ThreadModelChoice.VIRTUAL)) {
				logger.warn("%s=%s and %s=%s disagree: the web server uses %s threads, as %s says".formatted(
						MODEL_PROPERTY, written.id(), SPRING_VIRTUAL_PROPERTY, springVirtual, written.id(),
						MODEL_PROPERTY));
			}
			source = MODEL_PROPERTY;
		}
		else {
			source = (choice == ThreadModelChoice.VIRTUAL) ? SPRING_VIRTUAL_PROPERTY : "default";
		}
		ThreadModel model = (choice == ThreadModelChoice.AUTO) ? ThreadModel.VIRTUAL : choice.fixedModel();
		ThreadModelChoice tasks = properties.getTasks().getModel();
		// auto for tasks is refused by ThreadModelPropertiesCheck
		return new ThreadModelSelection(model, source, (tasks != null) ? tasks.fixedModel() : model);
	}

	/**
	 * What the server's requests run on, as the configuration says it now (an empty
	 * {@code app.threads.model} refused, as at startup).
	 * @param written what {@code app.threads.model} chooses, or {@code null} when unset
	 * @param environment where {@code spring.threads.virtual.enabled} is read
	 * @return the choice
	 */
	static ThreadModelChoice serverChoice(ThreadModelChoice written, Environment environment) {
		ThreadModelPropertiesCheck.checkWrittenModel(environment);
		return serverChoice(written, environment.getProperty(SPRING_VIRTUAL_PROPERTY, Boolean.class));
	}

	private static ThreadModelChoice serverChoice(ThreadModelChoice written, Boolean springVirtual) {
		if (written != null) {
			return written;
		}
		return Boolean.TRUE.equals(springVirtual) ? ThreadModelChoice.VIRTUAL : ThreadModelChoice.PLATFORM;
	}

	/**
	 * Matches when {@code app.threads.model} is {@code auto}, read by the binder as the
	 * properties are (any case, any relaxed form of the name). A value the binder cannot
	 * bind does not match here: binding the properties refuses it.
	 */
	static final class OnAuto extends SpringBootCondition {

		@Override
		public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
			ThreadModelChoice written = Binder.get(context.getEnvironment())
				.bind(MODEL_PROPERTY, Bindable.of(ThreadModelChoice.class), new IgnoreErrorsBindHandler())
				.orElse(null);
			ConditionMessage.Builder message = ConditionMessage.forCondition("app.threads.model=auto");
			return (written == ThreadModelChoice.AUTO) ? ConditionOutcome.match(message.because("it is auto"))
					: ConditionOutcome.noMatch(message.because("it is " + ((written != null) ? written.id() : "not set")));
		}

	}

}
