package io.github.threadmodel.internal.overload;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import io.github.threadmodel.executor.Refusal;

import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;

/**
 * The answer to a request the request executor refused: 503 with {@code Retry-After},
 * and a short body, JSON for clients that ask for JSON and plain text otherwise. Shared by
 * the servlet filter and the WebFlux exception handler, so that every server answers
 * alike. The bodies are constant text, written without a JSON library: the answer must
 * stay cheap when the server is overloaded.
 */
final class OverloadAnswer {

	static final int STATUS = 503;

	static final String RETRY_AFTER = "Retry-After";

	private final long retryAfterSeconds;

	OverloadAnswer(Duration retryAfter) {
		// Retry-After takes whole seconds; rounding up never asks a client back too early.
		this.retryAfterSeconds = retryAfter.plusSeconds(1).minusNanos(1).toSeconds();
	}

	String retryAfter() {
		return Long.toString(this.retryAfterSeconds);
	}

	/**
	 * Whether the client asks for JSON: its {@code Accept} header names a JSON type
	 * ({@code application/json}, {@code application/*+json}, {@code application/*}). A
	 * missing header, {@code *}{@code /*} or an unreadable one get plain text.
	 * @param accept the {@code Accept} header, or {@code null}
	 * @return whether to answer in JSON
	 */
	static boolean wantsJson(String accept) {
		if (accept == null) {
			return false;
		}
		try {
			return wantsJson(MediaType.parseMediaTypes(accept));
		}
		catch (InvalidMediaTypeException ex) {
			return false;
		}
	}

	static boolean wantsJson(List<MediaType> accepted) {
		return accepted.stream()
			.anyMatch((type) -> !type.isWildcardType()
					&& (type.isCompatibleWith(MediaType.APPLICATION_JSON) || "json".equals(type.getSubtypeSuffix())));
	}

	MediaType contentType(boolean json) {
		return json ? MediaType.APPLICATION_JSON : new MediaType(MediaType.TEXT_PLAIN, StandardCharsets.UTF_8);
	}

	byte[] body(Refusal refusal, boolean json) {
		String message = message(refusal);
		String body = json ? "{\"status\":503,\"error\":\"Service Unavailable\",\"message\":\"" + message
				+ "\",\"retryAfter\":" + this.retryAfterSeconds + "}" : message + "; retry after "
						+ this.retryAfterSeconds + " s\n";
		return body.getBytes(StandardCharsets.UTF_8);
	}

	private static String message(Refusal refusal) {
		return switch (refusal) {
			case QUEUE_FULL -> "The server is busy: every request thread is taken and the queue is full";
			case QUEUE_TIMEOUT, IDLE_TIMEOUT -> "The server is busy: the request waited too long for a request thread";
			case SHUTDOWN -> "The server is shutting down: the request waited too long for a request thread";
		};
	}

}
