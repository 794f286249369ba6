package io.github.threadmodel.executor;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import io.github.threadmodel.executor.ExecutorSettings.OverloadProtection;
import io.github.threadmodel.internal.handoff.RequestHandOff;
import io.github.threadmodel.internal.handoff.RequestTurn;
import io.github.threadmodel.testapp.ExecutorFixture;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static io.github.threadmodel.testapp.ExecutorFixture.platform;
import static io.github.threadmodel.testapp.ExecutorFixture.virtual;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Requests read ahead of their turn: a task that would wait behind the limit starts at
 * once with a {@link RequestTurn}; it can skip the queue, wait for its turn and run the
 * rest on the admitted thread, or be refused on its own thread.
 */
class RequestTurnTests {

	@RegisterExtension
	final ExecutorFixture fixture = new ExecutorFixture();

	private ThreadModelExecutor executor;

	@ParameterizedTest
	@EnumSource(ThreadModel.class)
	void aTaskBehindTheLimitSkipsTheQueueWhileTheLimitIsTaken(ThreadModel model) {
		this.executor = executorOfOne(model, null);
		holdTheOnlyTurn();
		CompletableFuture<String> skipped = new CompletableFuture<>();
		this.executor.execute(() -> {
			RequestTurn turn = RequestHandOff.currentTurn();
			turn.skip();
			skipped.complete(Thread.currentThread().getName());
		});
		assertThat(skipped).succeedsWithin(Duration.ofSeconds(10)).asString().startsWith("test-ahead");
		await().until(() -> this.executor.stats().queued() == 0);
		assertThat(this.executor.stats().running()).isEqualTo(1);
	}

	@ParameterizedTest
	@EnumSource(ThreadModel.class)
	void aTaskReadAheadRunsTheRestOnTheAdmittedThreadOnceItsTurnComes(ThreadModel model) {
		this.executor = executorOfOne(model, null);
		holdTheOnlyTurn();
		CompletableFuture<String> admittedOn = new CompletableFuture<>();
		CompletableFuture<Refusal> refusal = new CompletableFuture<>();
		this.executor.execute(() -> {
			try {
				RequestTurn turn = RequestHandOff.currentTurn();
				refusal.complete(turn.await());
				turn.runAdmitted(() -> admittedOn.complete(Thread.currentThread().getName()), UnaryOperator.identity());
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		});
		await().until(() -> this.executor.stats().queued() == 1);
		assertThat(admittedOn).isNotDone();
		this.fixture.release();
		assertThat(refusal).succeedsWithin(Duration.ofSeconds(10)).isNull();
		assertThat(admittedOn).succeedsWithin(Duration.ofSeconds(10))
			.asString()
			.startsWith("test-" + model.id() + "-");
		await().until(() -> this.executor.stats().completed() == 2 && this.executor.stats().running() == 0);
	}

	@ParameterizedTest
	@EnumSource(ThreadModel.class)
	void whatTheRestThrowsReachesTheThreadThatReadTheRequest(ThreadModel model) {
		this.executor = executorOfOne(model, null);
		CompletableFuture<Exception> thrown = new CompletableFuture<>();
		holdTheOnlyTurn();
		this.executor.execute(() -> {
			try {
				RequestTurn turn = RequestHandOff.currentTurn();
				turn.await();
				turn.<java.io.IOException>runAdmitted(() -> {
					throw new java.io.IOException("broken pipe");
				}, UnaryOperator.identity());
			}
			catch (Exception ex) {
				thrown.complete(ex);
			}
		});
		await().until(() -> this.executor.stats().queued() == 1);
		this.fixture.release();
		assertThat(thrown).succeedsWithin(Duration.ofSeconds(10))
			.isInstanceOf(java.io.IOException.class)
			.extracting(Exception::getMessage)
			.isEqualTo("broken pipe");
	}

	@org.junit.jupiter.api.Test
	void aTaskReadAheadThatWaitsTooLongIsRefusedOnItsOwnThread() {
		this.executor = executorOfOne(ThreadModel.VIRTUAL, Duration.ofMillis(100));
		holdTheOnlyTurn();
		CompletableFuture<Refusal> refusal = new CompletableFuture<>();
		this.executor.execute(() -> {
			try {
				refusal.complete(RequestHandOff.currentTurn().await());
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		});
		assertThat(refusal).succeedsWithin(Duration.ofSeconds(10)).isEqualTo(Refusal.QUEUE_TIMEOUT);
		await().until(() -> this.executor.stats().queued() == 0);
		assertThat(this.executor.stats().timedOut()).isEqualTo(1);
	}

	@ParameterizedTest
	@EnumSource(ThreadModel.class)
	void aTaskThatEndsWithoutTakingItsTurnGivesItBack(ThreadModel model) {
		this.executor = executorOfOne(model, null);
		holdTheOnlyTurn();
		this.executor.execute(() -> {
		});
		await().until(() -> this.executor.stats().queued() == 0);
		this.fixture.release();
		await().until(() -> this.executor.stats().running() == 0);
		CompletableFuture<Boolean> next = new CompletableFuture<>();
		this.executor.execute(() -> next.complete(RequestHandOff.currentTurn() == null));
		assertThat(next).succeedsWithin(Duration.ofSeconds(10)).isEqualTo(true);
	}

	@ParameterizedTest
	@EnumSource(ThreadModel.class)
	void aLaterRequestOnTheSameThreadTakesATurnOfItsOwn(ThreadModel model) {
		this.executor = executorOfOne(model, null);
		holdTheOnlyTurn();
		CompletableFuture<String> second = new CompletableFuture<>();
		this.executor.execute(() -> {
			RequestHandOff.currentTurn().skip(); // the first request on the connection: a probe
			try {
				Refusal refusal = RequestHandOff.runInTurn(this.executor, () -> second.complete(Thread.currentThread().getName()),
						UnaryOperator.identity());
				assertThat(refusal).isNull();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		});
		await().until(() -> this.executor.stats().queued() == 1);
		assertThat(second).isNotDone();
		this.fixture.release();
		assertThat(second).succeedsWithin(Duration.ofSeconds(10)).asString().startsWith("test-" + model.id() + "-");
	}

	@org.junit.jupiter.api.Test
	void withoutReadingAheadTasksWaitUnread() throws Exception {
		this.executor = this.fixture.use(new ThreadModelExecutor("test-", virtual(1), new OverloadProtection(null)));
		holdTheOnlyTurn();
		CompletableFuture<Boolean> hadTurn = new CompletableFuture<>();
		this.executor.execute(() -> hadTurn.complete(RequestHandOff.currentTurn() != null));
		await().until(() -> this.executor.stats().queued() == 1);
		assertThat(hadTurn).isNotDone();
		this.fixture.release();
		assertThat(hadTurn.get(10, TimeUnit.SECONDS)).isFalse();
	}

	private ThreadModelExecutor executorOfOne(ThreadModel model, Duration queueTimeout) {
		ExecutorSettings settings = (model == ThreadModel.PLATFORM) ? platform(1, 1, null) : virtual(1);
		ThreadModelExecutor executor = new ThreadModelExecutor("test-", settings, new OverloadProtection(queueTimeout));
		RequestHandOff.readRequestsAhead(executor, 10);
		return this.fixture.use(executor);
	}

	private void holdTheOnlyTurn() {
		this.fixture.submitBlocking(1);
		await().until(() -> this.executor.stats().running() == 1);
	}

}
