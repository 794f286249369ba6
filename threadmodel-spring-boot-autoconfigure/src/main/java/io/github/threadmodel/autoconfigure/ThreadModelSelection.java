package io.github.threadmodel.autoconfigure;

import io.github.threadmodel.executor.ThreadModel;
import io.github.threadmodel.executor.ThreadModelChoice;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * The thread models the configuration chooses and where the server's came from, chosen
 * here and nowhere else (from {@link ThreadModelSettings}, the one reading of the
 * configuration): {@code app.threads.model} wins; when it is unset,
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
	 * @param properties the bound and checked {@code app.threads.*} values
	 * @param springVirtual {@code spring.threads.virtual.enabled}, or {@code null} when
	 * unset
	 * @return the selection
	 */
	static ThreadModelSelection of(ThreadModelProperties properties, Boolean springVirtual) {
		ThreadModelChoice written = properties.getModel();
		ThreadModelChoice choice = serverChoice(written, springVirtual);
		String source;
		if (written == ThreadModelChoice.AUTO) {
			source = AUTO_SOURCE;
		}
		else if (written != null) {
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
	 * What the server's requests run on: {@code app.threads.model}, or, unset, what
	 * {@code spring.threads.virtual.enabled} says.
	 * @param written what {@code app.threads.model} chooses, or {@code null} when unset
	 * @param springVirtual {@code spring.threads.virtual.enabled}, or {@code null} when
	 * unset
	 * @return the choice
	 */
	static ThreadModelChoice serverChoice(ThreadModelChoice written, Boolean springVirtual) {
		if (written != null) {
			return written;
		}
		return Boolean.TRUE.equals(springVirtual) ? ThreadModelChoice.VIRTUAL : ThreadModelChoice.PLATFORM;
	}

	/**
	 * Says once, at startup, when both properties are written and disagree: the starter's
	 * wins.
	 * @param written what {@code app.threads.model} chooses, or {@code null} when unset
	 * @param springVirtual {@code spring.threads.virtual.enabled}, or {@code null} when
	 * unset
	 */
	static void warnIfDisagreeing(ThreadModelChoice written, Boolean springVirtual) {
		if (written != null && written != ThreadModelChoice.AUTO && springVirtual != null
				&& springVirtual != (written == ThreadModelChoice.VIRTUAL)) {
			logger.warn("%s=%s and %s=%s disagree: the web server uses %s threads, as %s says".formatted(MODEL_PROPERTY,
					written.id(), SPRING_VIRTUAL_PROPERTY, springVirtual, written.id(), MODEL_PROPERTY));
		}
	}

}
