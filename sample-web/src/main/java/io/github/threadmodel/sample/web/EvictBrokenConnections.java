package io.github.threadmodel.sample.web;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;

import com.zaxxer.hikari.SQLExceptionOverride;

/**
 * Tells Hikari to throw away a pooled connection whose driver reported it broken, whatever the SQL state. Hikari
 * recognises the standard "08" states by itself (MariaDB's), but not every driver's codes (H2 over TCP says
 * 90121 "database is already closed"): without this, a broken connection could go back to the pool and fail
 * every request after the database came back. Set by {@code spring.datasource.hikari.exception-override-class-name}.
 */
public class EvictBrokenConnections implements SQLExceptionOverride {

	@java.lang.Override
	public SQLExceptionOverride.Override adjudicate(SQLException ex) {
		for (Throwable t = ex; t != null; t = t.getCause()) {
			if (t instanceof SQLNonTransientConnectionException || t instanceof SQLTransientConnectionException
					|| (t instanceof SQLException sql && sql.getSQLState() != null
							&& sql.getSQLState().startsWith("08"))) {
				return SQLExceptionOverride.Override.MUST_EVICT;
			}
		}
		return SQLExceptionOverride.Override.CONTINUE_EVICT;
	}

}
