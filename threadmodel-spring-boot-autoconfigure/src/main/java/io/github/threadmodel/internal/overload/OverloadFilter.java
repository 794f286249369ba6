package io.github.threadmodel.internal.overload;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;

import io.github.threadmodel.executor.Refusal;
import io.github.threadmodel.executor.ThreadModelExecutor;
import io.github.threadmodel.internal.handoff.RequestHandOff;
import io.github.threadmodel.internal.handoff.RequestTurn;
import io.github.threadmodel.internal.lanes.Lane;
import io.github.threadmodel.internal.lanes.ServletLanes;
import io.github.threadmodel.internal.requests.RequestCounts;
import io.github.threadmodel.internal.servers.RequestThreadContext;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * Where a servlet request meets the request executor's limits once the server has read
 * it. Tomcat, Jetty and Undertow run the whole servlet pipeline on the executor's task, so
 * the filter runs on the thread where the executor left its decision:
 * <ul>
 * <li>a request the executor refused under overload ({@link Refusal}) is answered 503 with
 * {@code Retry-After}, without calling the rest of the application;</li>
 * <li>a request the executor read ahead of its turn ({@link RequestTurn}) waits here for
 * its turn, then runs the rest on the thread that admitted it, or is answered 503;</li>
 * <li>a health probe ({@link ProbePaths}) does neither: it runs at once on the thread that
 * read it, outside the limits, so that a busy server is never restarted or taken out of
 * its load balancer for being slow to answer its probes;</li>
 * <li>a request that is no probe but was read on a thread of the {@link ProbeLane} (a
 * request pipelined behind a probe on its connection) takes a turn of the request
 * executor like any request, and runs there;</li>
 * <li>a request of a {@link Lane} (by its path or its handler's annotation) runs on the
 * lane's executor, under the lane's limits and not the request executor's: the thread
 * that read it gives back the turn it was read ahead with and waits for it, or answers
 * 503 when the lane refuses it;</li>
 * <li>every other request passes through at the cost of two thread-local reads, and with
 * lanes a look at the start of its path ({@link ServletLanes#laneOf}).</li>
 * </ul>
 * Registered right after the starter's request counting and before observation and
 * security, so that a refused request costs no more work, and what those filters put on
 * the thread belongs to the thread that runs the request. Each 503 it writes is counted as
 * rejected, each probe that skipped a wait or a 503 as bypassed.
 */
public class OverloadFilter implements Filter {

	private final OverloadAnswer answer;

	private final RequestCounts counts;

	private final ProbePaths probes;

	private final ThreadModelExecutor requests;

	private final List<RequestThreadContext> contexts;

	private final ServletLanes lanes;

	/**
	 * Creates the filter.
	 * @param retryAfter the {@code Retry-After} to send, rounded up to whole seconds
	 * @param counts where to count the 503 answers and the bypassed probes
	 * @param probes the paths that never wait nor get a 503
	 * @param requests the request executor, for a later request read on a thread whose turn
	 * was used
	 * @param contexts what the server keeps on the reading thread, beyond its class loader
	 * @param lanes the lanes whose requests run on executors of their own
	 */
	public OverloadFilter(Duration retryAfter, RequestCounts counts, ProbePaths probes, ThreadModelExecutor requests,
			List<RequestThreadContext> contexts, ServletLanes lanes) {
		this.answer = new OverloadAnswer(retryAfter);
		this.counts = counts;
		this.probes = probes;
		this.requests = requests;
		this.contexts = List.copyOf(contexts);
		this.lanes = lanes;
	}

	@Override
	public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
			throws IOException, ServletException {
		Refusal refusal = Refusal.current();
		RequestTurn turn = RequestHandOff.currentTurn();
		boolean admitted = refusal == null && turn == null && !ProbeLane.runsCurrentThread();
		if ((admitted && this.lanes.isEmpty()) || !(request instanceof HttpServletRequest httpRequest)
				|| !(response instanceof HttpServletResponse httpResponse)) {
			chain.doFilter(request, response);
			return;
		}
		Lane lane = this.lanes.laneOf(httpRequest);
		if (admitted && lane == null) {
			chain.doFilter(request, response);
			return;
		}
		if (this.probes.matches(httpRequest.getRequestURI(), httpRequest.getContextPath())) {
			skipUnused(turn);
			this.counts.onBypassed();
			chain.doFilter(request, response);
			return;
		}
		if (lane != null) {
			// the lane's limits, not the request executor's, decide
			skipUnused(turn);
			refusal = runIn(lane.executor(), request, response, chain);
		}
		else if (refusal == null) {
			refusal = takeTurn(turn, request, response, chain);
		}
		if (refusal != null) {
			answer(refusal, httpRequest, httpResponse);
		}
	}

	private static void skipUnused(RequestTurn turn) {
		if (turn != null && turn.isUnused()) {
			turn.skip();
		}
	}

	/**
	 * Waits for the request's turn and runs the rest of it on the admitted thread.
	 * @param turn the turn the request was read ahead with, or {@code null} for one of its own
	 * @return the refusal when the request was refused instead
	 */
	private Refusal takeTurn(RequestTurn turn, ServletRequest request, ServletResponse response, FilterChain chain)
			throws IOException, ServletException {
		if (turn == null || !turn.isUnused()) {
			return runIn(this.requests, request, response, chain);
		}
		return waitFor(() -> {
			Refusal refusal = turn.await();
			if (refusal == null) {
				turn.runAdmitted(() -> chain.doFilter(request, response), carryContext());
			}
			return refusal;
		});
	}

	/**
	 * Runs the rest of the request as a new task of an executor, under its limits, while
	 * this thread waits.
	 * @return the refusal when the executor refused it instead
	 */
	private Refusal runIn(ThreadModelExecutor executor, ServletRequest request, ServletResponse response,
			FilterChain chain) throws IOException, ServletException {
		return waitFor(() -> RequestHandOff.runInTurn(executor, () -> chain.doFilter(request, response),
				carryContext()));
	}

	private static Refusal waitFor(Wait wait) throws IOException, ServletException {
		try {
			return wait.run();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new ServletException("Interrupted while the request waited for its turn", ex);
		}
		catch (IOException | ServletException | RuntimeException ex) {
			throw ex;
		}
		catch (Exception ex) {
			throw new ServletException(ex);
		}
	}

	/** A wait for a turn, then the rest of the request, on whatever thread got the turn. */
	private interface Wait {

		Refusal run() throws Exception;

	}

	/**
	 * Captures this thread's context class loader and what the server keeps on it.
	 */
	private UnaryOperator<Runnable> carryContext() {
		ClassLoader classLoader = Thread.currentThread().getContextClassLoader();
		List<RequestThreadContext> contexts = this.contexts;
		return (work) -> {
			Runnable carried = work;
			for (RequestThreadContext context : contexts) {
				carried = context.carry(carried);
			}
			Runnable withServerContext = carried;
			return () -> {
				Thread thread = Thread.currentThread();
				ClassLoader previous = thread.getContextClassLoader();
				thread.setContextClassLoader(classLoader);
				try {
					withServerContext.run();
				}
				finally {
					thread.setContextClassLoader(previous);
				}
			};
		};
	}

	private void answer(Refusal refusal, HttpServletRequest request, HttpServletResponse response) throws IOException {
		boolean json = OverloadAnswer.wantsJson(request.getHeader("Accept"));
		byte[] body = this.answer.body(refusal, json);
		response.setStatus(OverloadAnswer.STATUS);
		response.setHeader(OverloadAnswer.RETRY_AFTER, this.answer.retryAfter());
		response.setContentType(this.answer.contentType(json).toString());
		response.setContentLength(body.length);
		response.getOutputStream().write(body);
		this.counts.onRejected(refusal);
	}

}
