package io.github.threadmodel.executor;

import java.util.Objects;

/**
 * A switch asked of the {@link ThreadModelSwitcher}: the model, the limits, and who
 * asks. {@link ThreadModelSwitcher#apply} checks it whole before anything changes.
 *
 * @param model the model to run on; {@link ThreadModelChoice#AUTO} to apply the limits
 * given and let {@code app.threads.model=auto} decide again; {@code null} to keep the
 * model in force and change only the limits
 * @param maxThreads the platform pool's new limit, or {@code null} to keep it
 * @param maxConcurrency the new virtual concurrency limit, or {@code null} to keep it
 * @param source who or what asks
 * @param requestedBy who or what asks, in words, as the switch history shows it
 * @param lane the lane to switch ({@code app.threads.lanes.<name>}), or {@code null} for
 * the web server's request executor
 * @since 0.1.0
 */
public record SwitchRequest(ThreadModelChoice model, Integer maxThreads, Integer maxConcurrency, SwitchSource source,
		String requestedBy, String lane) {

	public SwitchRequest {
		Objects.requireNonNull(source, "source");
		Objects.requireNonNull(requestedBy, "requestedBy");
	}

	/**
	 * A switch of the web server's request executor.
	 * @param model the model, see {@link #model()}
	 * @param maxThreads the platform pool's new limit, or {@code null} to keep it
	 * @param maxConcurrency the new virtual concurrency limit, or {@code null} to keep it
	 * @param source who or what asks
	 * @param requestedBy who or what asks, in words
	 */
	public SwitchRequest(ThreadModelChoice model, Integer maxThreads, Integer maxConcurrency, SwitchSource source,
			String requestedBy) {
		this(model, maxThreads, maxConcurrency, source, requestedBy, null);
	}

	/**
	 * A switch to a model, its limits kept.
	 * @param model the model, or {@link ThreadModelChoice#AUTO}
	 * @param source who or what asks
	 * @param requestedBy who or what asks, in words
	 * @return the request
	 */
	public static SwitchRequest to(ThreadModelChoice model, SwitchSource source, String requestedBy) {
		return new SwitchRequest(model, null, null, source, requestedBy);
	}

}
