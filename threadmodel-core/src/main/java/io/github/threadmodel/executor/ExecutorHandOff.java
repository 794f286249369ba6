package io.github.threadmodel.executor;

import java.util.function.UnaryOperator;

import io.github.threadmodel.internal.handoff.RequestHandOff;
import io.github.threadmodel.internal.handoff.RequestTurn;

/**
 * The executor's side of the {@link RequestHandOff}, kept out of
 * {@link ThreadModelExecutor}'s public API; registered when that class is initialized.
 */
final class ExecutorHandOff implements RequestHandOff.Access {

	@Override
	public RequestTurn currentTurn() {
		return ReadAheadTurn.current();
	}

	@Override
	public void readRequestsAhead(ThreadModelExecutor executor, int limit) {
		executor.readRequestsAhead(limit);
	}

	@Override
	public <E extends Exception> Refusal runInTurn(ThreadModelExecutor executor, RequestTurn.Work<E> request,
			UnaryOperator<Runnable> context) throws E, InterruptedException {
		return executor.runInTurn(request, context);
	}

}
