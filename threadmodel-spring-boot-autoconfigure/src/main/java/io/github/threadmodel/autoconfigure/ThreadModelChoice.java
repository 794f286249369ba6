package io.github.threadmodel.autoconfigure;

import java.util.Locale;

import io.github.threadmodel.executor.ThreadModel;


/**
 * What {@code app.threads.model} chooses for the web server's request handling: one of
 * the thread models, or {@code auto}, which switches between them as the workload asks.
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
	 * The allowed values of {@code app.threads.model}, as the documentation writes them.
	 */
	public static final String ALLOWED = "platform, virtual or auto";

	/**
	 * The name used in properties: {@code platform}, {@code virtual} or {@code auto}.
	 * @return the lower-case name
	 */
	public String id() {
		return name().toLowerCase(Locale.ROOT);
	}

	/**
	 * The choice a value names, in any case, around blanks.
	 * @param value the value
	 * @return the choice, or {@code null} when the value names none
	 */
	public static ThreadModelChoice of(String value) {
		String id = value.trim().toLowerCase(Locale.ROOT);
		for (ThreadModelChoice choice : values()) {
			if (choice.id().equals(id)) {
				return choice;
			}
		}
		return null;
	}

	/**
	 * The model chosen once and for all.
	 * @return the model, or {@code null} for {@link #AUTO}
	 */
	public ThreadModel fixedModel() {
		return this.model;
	}

}
