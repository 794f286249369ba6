package io.github.threadmodel.sample.reactive;

import java.io.IOException;
import java.util.concurrent.TimeoutException;

import io.lettuce.core.RedisException;
import io.r2dbc.spi.R2dbcNonTransientResourceException;
import io.r2dbc.spi.R2dbcTimeoutException;
import io.r2dbc.spi.R2dbcTransientResourceException;
import reactor.pool.PoolAcquireTimeoutException;
import reactor.pool.PoolShutdownException;

import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.dao.TransientDataAccessResourceException;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.RedisSystemException;

/** The database or Redis could not be reached, or did not answer in time: answered with 503. */
public class BackendUnavailableException extends RuntimeException {

	private final String backend;

	public BackendUnavailableException(String backend, Throwable cause) {
		super(backend + " unavailable", cause);
		this.backend = backend;
	}

	public String backend() {
		return this.backend;
	}

	/** Whether {@code ex} (or one of its causes) says that a back end is down or silent. */
	static boolean isUnavailable(Throwable ex) {
		for (Throwable t = ex; t != null; t = (t.getCause() == t) ? null : t.getCause()) {
			if (t instanceof TimeoutException || t instanceof IOException || t instanceof PoolAcquireTimeoutException
					|| t instanceof PoolShutdownException || t instanceof DataAccessResourceFailureException
					|| t instanceof TransientDataAccessResourceException || t instanceof QueryTimeoutException
					|| t instanceof R2dbcTransientResourceException || t instanceof R2dbcNonTransientResourceException
					|| t instanceof R2dbcTimeoutException || t instanceof RedisConnectionFailureException
					|| t instanceof RedisSystemException || t instanceof RedisException) {
				return true;
			}
		}
		return false;
	}

}
