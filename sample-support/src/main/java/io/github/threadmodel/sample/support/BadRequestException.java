package io.github.threadmodel.sample.support;

/** Answered with 400 and a JSON error body. */
public class BadRequestException extends RuntimeException {

	public BadRequestException(String message) {
		super(message);
	}

}
