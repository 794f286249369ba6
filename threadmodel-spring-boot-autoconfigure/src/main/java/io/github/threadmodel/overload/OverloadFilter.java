package io.github.threadmodel.overload;

import java.io.IOException;
import java.time.Duration;

import io.github.threadmodel.executor.Refusal;
import io.github.threadmodel.requests.RequestCounts;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * Answers a request that the request executor refused under overload with 503 and
 * {@code Retry-After}, without calling the rest of the application. Tomcat, Jetty and
 * Undertow run the whole servlet pipeline on the executor's task, so the filter runs on
 * the thread where the executor set the {@link Refusal}; other requests pass through at
 * the cost of one thread-local read. Registered right after the starter's request counting,
 * so that a refused request costs no security or observation work; each 503 it writes is
 * counted as rejected.
 */
public class OverloadFilter implements Filter {

	private final OverloadAnswer answer;

	private final RequestCounts counts;

	/**
	 * Creates the filter.
	 * @param retryAfter the {@code Retry-After} to send, rounded up to whole seconds
	 * @param counts where to count the 503 answers
	 */
	public OverloadFilter(Duration retryAfter, RequestCounts counts) {
		this.answer = new OverloadAnswer(retryAfter);
		this.counts = counts;
	}

	@Override
	public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
			throws IOException, ServletException {
		Refusal refusal = Refusal.current();
		if (refusal == null || !(request instanceof HttpServletRequest httpRequest)
				|| !(response instanceof HttpServletResponse httpResponse)) {
			chain.doFilter(request, response);
			return;
		}
		boolean json = OverloadAnswer.wantsJson(httpRequest.getHeader("Accept"));
		byte[] body = this.answer.body(refusal, json);
		httpResponse.setStatus(OverloadAnswer.STATUS);
		httpResponse.setHeader(OverloadAnswer.RETRY_AFTER, this.answer.retryAfter());
		httpResponse.setContentType(this.answer.contentType(json).toString());
		httpResponse.setContentLength(body.length);
		httpResponse.getOutputStream().write(body);
		this.counts.onRejected(refusal);
	}

}
