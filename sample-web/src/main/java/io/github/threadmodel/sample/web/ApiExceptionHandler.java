package io.github.threadmodel.sample.web;

import java.sql.SQLTransientConnectionException;
import java.util.Map;

import io.github.threadmodel.sample.support.BadRequestException;
import io.github.threadmodel.sample.support.JsonError;
import io.github.threadmodel.sample.support.NotFoundException;
import io.lettuce.core.RedisException;
import jakarta.servlet.http.HttpServletRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.NonTransientDataAccessResourceException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.dao.TransientDataAccessResourceException;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;

/**
 * JSON errors: 400 for a bad argument, 404 for an unknown id, 503 when the database or Redis cannot be reached
 * (connection refused, or no answer within the configured timeout), 500 otherwise.
 */
@RestControllerAdvice
class ApiExceptionHandler {

	private static final Logger logger = LoggerFactory.getLogger(ApiExceptionHandler.class);

	@ExceptionHandler(NotFoundException.class)
	ResponseEntity<Map<String, Object>> notFound(NotFoundException ex, HttpServletRequest request) {
		return error(HttpStatus.NOT_FOUND, ex.getMessage(), request);
	}

	@ExceptionHandler({ BadRequestException.class, MethodArgumentTypeMismatchException.class })
	ResponseEntity<Map<String, Object>> badRequest(Exception ex, HttpServletRequest request) {
		String message = (ex instanceof MethodArgumentTypeMismatchException mismatch)
				? "invalid value '" + mismatch.getValue() + "' for '" + mismatch.getName() + "'" : ex.getMessage();
		return error(HttpStatus.BAD_REQUEST, message, request);
	}

	@ExceptionHandler(Exception.class)
	ResponseEntity<Map<String, Object>> other(Exception ex, HttpServletRequest request) throws Exception {
		String unavailable = unavailableBackend(ex);
		if (unavailable != null) {
			logger.warn("{} unavailable for {}: {}", unavailable, request.getRequestURI(), ex.toString());
			return error(HttpStatus.SERVICE_UNAVAILABLE, unavailable + " unavailable", request);
		}
		if (ex instanceof org.springframework.web.ErrorResponse || ex instanceof HttpMessageNotReadableException) {
			throw ex; // 404 for unknown paths, 405, 400 for an unreadable body, and so on: Spring's own handling.
		}
		logger.error("Request {} failed", request.getRequestURI(), ex);
		return error(HttpStatus.INTERNAL_SERVER_ERROR, "internal error", request);
	}

	/** "redis" or "database" when a cause of {@code ex} says it could not be reached, null otherwise. */
	static String unavailableBackend(Throwable ex) {
		for (Throwable t = ex; t != null; t = (t.getCause() == t) ? null : t.getCause()) {
			if (t instanceof RedisConnectionFailureException || t instanceof RedisSystemException
					|| t instanceof RedisException
					|| t instanceof org.springframework.data.redis.connection.PoolException) {
				return "redis";
			}
		}
		for (Throwable t = ex; t != null; t = (t.getCause() == t) ? null : t.getCause()) {
			if (t instanceof CannotCreateTransactionException || t instanceof DataAccessResourceFailureException
					|| t instanceof TransientDataAccessResourceException
					|| t instanceof NonTransientDataAccessResourceException
					|| t instanceof RecoverableDataAccessException || t instanceof QueryTimeoutException
					|| t instanceof SQLTransientConnectionException
					|| t instanceof java.sql.SQLNonTransientConnectionException
					|| t instanceof org.hibernate.exception.JDBCConnectionException) {
				return "database";
			}
		}
		return null;
	}

	private static ResponseEntity<Map<String, Object>> error(HttpStatus status, String message,
			HttpServletRequest request) {
		return JsonError.response(status, message, request.getRequestURI());
	}

}
