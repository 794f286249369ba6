package io.github.threadmodel.internal.overload;

import io.github.threadmodel.executor.Refusal;

/**
 * Ends a refused WebFlux request before its controller method runs; answered by
 * {@link OverloadWebExceptionHandler}. It carries no stack trace: it is expected, and
 * frequent under overload.
 */
public final class RefusedRequestException extends RuntimeException {

	private final Refusal refusal;

	public RefusedRequestException(Refusal refusal) {
		super("Request refused under overload: " + refusal.id(), null, false, false);
		this.refusal = refusal;
	}

	/**
	 * The refusal behind an error, which Reactor wraps on its way.
	 * @param error the error
	 * @return the refusal, or {@code null} when the error is not a refusal
	 */
	public static Refusal find(Throwable error) {
		for (Throwable cause = error; cause != null; cause = (cause.getCause() != cause) ? cause.getCause() : null) {
			if (cause instanceof RefusedRequestException refused) {
				return refused.refusal;
			}
		}
		return null;
	}

}
