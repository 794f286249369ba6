package io.github.threadmodel.requests;

import java.io.IOException;

import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;

/**
 * Counts the servlet requests that are in asynchronous processing
 * ({@link ServletRequest#isAsyncStarted()} when their first dispatch returns) until
 * their {@link AsyncListener} sees them complete. Registered for the first dispatch of
 * each request only.
 */
public class AsyncRequestsFilter implements Filter {

	private final AsyncRequests requests;

	/**
	 * Creates the filter.
	 * @param requests where to count
	 */
	public AsyncRequestsFilter(AsyncRequests requests) {
		this.requests = requests;
	}

	@Override
	public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
			throws IOException, ServletException {
		try {
			chain.doFilter(request, response);
		}
		finally {
			if (request.isAsyncStarted()) {
				this.requests.onStarted();
				request.getAsyncContext().addListener(new Completion());
			}
		}
	}

	/**
	 * Counts the request's end once, whether it completed, timed out or failed (the
	 * container completes it after those too).
	 */
	private final class Completion implements AsyncListener {

		@Override
		public void onComplete(AsyncEvent event) {
			AsyncRequestsFilter.this.requests.onCompleted();
		}

		@Override
		public void onTimeout(AsyncEvent event) {
		}

		@Override
		public void onError(AsyncEvent event) {
		}

		@Override
		public void onStartAsync(AsyncEvent event) {
			event.getAsyncContext().addListener(this); // started again: keep listening
		}

	}

}
