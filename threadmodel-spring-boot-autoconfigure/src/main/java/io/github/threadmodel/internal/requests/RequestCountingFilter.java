package io.github.threadmodel.internal.requests;

import java.io.IOException;

import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;

/**
 * Counts each HTTP request of a servlet application once: received when it enters the
 * filter chain, completed when its first dispatch returns or, for an asynchronous request,
 * when it completes, and the asynchronous ones apart while they are open
 * ({@link AsyncRequests}). Registered first, for the first dispatch of each request only, so
 * that a request is one request whatever server and connection carried it.
 */
public class RequestCountingFilter implements Filter {

	private final RequestCounts counts;

	private final AsyncRequests asyncRequests;

	/**
	 * Creates the filter.
	 * @param counts where to count the requests
	 * @param asyncRequests where to count the requests in asynchronous processing
	 */
	public RequestCountingFilter(RequestCounts counts, AsyncRequests asyncRequests) {
		this.counts = counts;
		this.asyncRequests = asyncRequests;
	}

	@Override
	public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
			throws IOException, ServletException {
		this.counts.onReceived();
		try {
			chain.doFilter(request, response);
		}
		finally {
			if (request.isAsyncStarted()) {
				this.asyncRequests.onStarted();
				request.getAsyncContext().addListener(new Completion());
			}
			else {
				this.counts.onCompleted();
			}
		}
	}

	/**
	 * Counts an asynchronous request when it completes (after an error or a timeout too).
	 */
	private final class Completion implements AsyncListener {

		@Override
		public void onComplete(AsyncEvent event) {
			RequestCountingFilter.this.counts.onCompleted();
			RequestCountingFilter.this.asyncRequests.onCompleted();
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
