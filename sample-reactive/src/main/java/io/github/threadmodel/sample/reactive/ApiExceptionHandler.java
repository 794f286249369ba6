package io.github.threadmodel.sample.reactive;

import java.util.Map;

import io.github.threadmodel.sample.support.BadRequestException;
import io.github.threadmodel.sample.support.JsonError;
import io.github.threadmodel.sample.support.NotFoundException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.TypeMismatchException;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.server.ServerWebInputException;

/**
 * JSON errors: 400 for a bad argument, 404 for an unknown id, 503 when the database or Redis cannot be reached
 * or does not answer within {@code sample.backend-timeout}.
 */
@RestControllerAdvice
class ApiExceptionHandler {

	private static final Logger logger = LoggerFactory.getLogger(ApiExceptionHandler.class);

	@ExceptionHandler(NotFoundException.class)
	ResponseEntity<Map<String, Object>> notFound(NotFoundException ex, ServerHttpRequest request) {
		return error(HttpStatus.NOT_FOUND, ex.getMessage(), request);
	}

	@ExceptionHandler(BadRequestException.class)
	ResponseEntity<Map<String, Object>> badRequest(BadRequestException ex, ServerHttpRequest request) {
		return error(HttpStatus.BAD_REQUEST, ex.getMessage(), request);
	}

	@ExceptionHandler(ServerWebInputException.class)
	ResponseEntity<Map<String, Object>> badInput(ServerWebInputException ex, ServerHttpRequest request) {
		String message = (ex.getCause() instanceof TypeMismatchException mismatch)
				? "invalid value '" + mismatch.getValue() + "' for '" + mismatch.getPropertyName() + "'"
				: ex.getReason();
		return error(HttpStatus.BAD_REQUEST, message, request);
	}

	@ExceptionHandler(BackendUnavailableException.class)
	ResponseEntity<Map<String, Object>> unavailable(BackendUnavailableException ex, ServerHttpRequest request) {
		logger.warn("{} for {}: {}", ex.getMessage(), request.getPath(), String.valueOf(ex.getCause()));
		return error(HttpStatus.SERVICE_UNAVAILABLE, ex.getMessage(), request);
	}

	private static ResponseEntity<Map<String, Object>> error(HttpStatus status, String message,
			ServerHttpRequest request) {
		return JsonError.response(status, message, request.getPath().value());
	}

}
