package io.github.threadmodel.executor;

import java.util.Locale;

/**
 * What {@code app.threads.model} chooses for the web server's request handling: one of
 * the thread models, or {@code auto}, which switches between them as the workload asks;
 * {@code app.threads.tasks.model} takes the thread models only. Spring Boot binds either
 * in any case; a value it cannot bind stops startup with the allowed values as the
 * documentation writes them.
 * @since 0.1.0
 */
public enum ThreadModelChoice {

	/**
	 * A bounded pool of platform threads.
	 */
	PLATFORM(ThreadModel.PLATFORM),

	/**
	 * A virtual thread per request.
	 */
	VIRTUAL(ThreadModel.VIRTUAL),

	/**
	 * Starts on virtual threads and switches between virtual and platform threads as the
	 * measured workload asks (app.threads.auto.*).
	 */
	AUTO(null);

	private final ThreadModel model;

	ThreadModelChoice(ThreadModel model) {
		this.model = model;
	}

	/**
	 * The name used in properties: {@code platform}, {@code virtual} or {@code auto}.
	 * @return the lower-case name
	 */
	public String id() {
		return name().toLowerCase(Locale.ROOT);
	}

	/**
	 * The choice of one model.
	 * @param model the model
	 * @return its choice
	 */
	public static ThreadModelChoice of(ThreadModel model) {
		return (model == ThreadModel.PLATFORM) ? PLATFORM : VIRTUAL;
	}

	/**
	 * The model chosen once and for all.
	 * @return the model, or {@code null} for {@link #AUTO}
	 */
	public ThreadModel fixedModel() {
		return this.model;
	}

}
