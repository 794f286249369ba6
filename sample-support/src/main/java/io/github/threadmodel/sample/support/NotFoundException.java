package io.github.threadmodel.sample.support;

/** Answered with 404 and a JSON error body. */
public class NotFoundException extends RuntimeException {

	public NotFoundException(String message) {
		super(message);
	}

}
