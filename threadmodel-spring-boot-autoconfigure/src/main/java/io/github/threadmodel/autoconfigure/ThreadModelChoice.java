package io.github.threadmodel.autoconfigure;

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
	 * The model chosen once and for all.
	 * @return the model, or {@code null} for {@link #AUTO}
	 */
	public ThreadModel fixedModel() {
		return this.model;
	}

}
