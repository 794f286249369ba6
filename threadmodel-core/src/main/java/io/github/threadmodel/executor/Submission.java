package io.github.threadmodel.executor;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.core.task.TaskRejectedException;

/**
 * A task handed to a {@link ThreadModelExecutor}, with the time it arrived, and whether
 * it waits behind the model's limit: it counts in the queue depth from the moment the
 * threads say so until it gets a thread (or is refused). A task the threads take at once
 * never counts, however long its thread then takes to run it.
 */
final class Submission implements Runnable, ModelThreads.Admission, ReadAheadTurn.Listener {

	private static final int NEW = 0;

	private static final int WAITING = 1;

	private static final int DONE = 2;

	private final Runnable task;

	private final long submittedAt;

	private final boolean mayReadAhead;

	private final Parts parts;

	private final AtomicInteger state = new AtomicInteger(NEW);

	/** When it got a virtual thread of its own, or 0 (platform threads). */
	private volatile long startedOnVirtualThreadAt;

	/**
	 * Whether the task was claimed to run: by the thread that admits it, or by a thread
	 * that reads its request ahead. Exactly one of them runs it.
	 */
	private final AtomicBoolean claimed = new AtomicBoolean();

	/** The turn of a task read ahead, set before its claim; {@code null} otherwise. */
	private volatile ReadAheadTurn turn;

	/**
	 * Whether it holds a turn of the {@link ExecutorSettings.TaskLimit}, given back when it
	 * ends.
	 */
	private volatile boolean holdsTurn;

	/**
	 * The parts of the executor that every one of its submissions uses.
	 *
	 * @param executor the executor, for messages
	 * @param recorder counts what the task does
	 * @param turns the turns of the executor's {@link ExecutorSettings.TaskLimit}, or
	 * {@code null} without one
	 * @param readAhead the requests read ahead of their turn
	 * @param refused runs the refused tasks
	 * @param idleWait refuses a task that waited too long for its connection
	 */
	record Parts(Object executor, TaskRecorder recorder, TaskTurns turns, ReadAhead readAhead,
			RefusedTasks refused, IdleWait idleWait) {

	}

	Submission(Runnable task, boolean mayReadAhead, Parts parts) {
		this.task = task;
		this.submittedAt = System.nanoTime();
		this.mayReadAhead = mayReadAhead;
		this.parts = parts;
	}

	/**
	 * A task that, once admitted, hands its thread to the rest of a request waiting for
	 * the turn ({@link ThreadModelExecutor#runInTurn}), or tells the turn its refusal.
	 */
	static Submission takingTurn(ReadAheadTurn turn, Parts parts) {
		return new Submission(() -> {
			Refusal refusal = Refusal.current();
			if (refusal != null) {
				turn.refuse(refusal);
				return;
			}
			Runnable work = turn.admit();
			if (work != null) {
				work.run();
			}
		}, false, parts);
	}

	@Override
	public void waitsBehindLimit() {
		// counted before the state says so, so that whoever admits the task meanwhile
		// never takes the depth below zero
		int queued = this.parts.recorder.enterQueue();
		if (this.state.compareAndSet(NEW, WAITING)) {
			this.parts.recorder.peakQueued(queued);
			this.parts.idleWait.arm(this, this.submittedAt);
			readAheadIfAllowed();
		}
		else {
			this.parts.recorder.leaveQueue(); // admitted (or refused) already, or waiting since a switch
		}
	}

	private void readAheadIfAllowed() {
		ReadAhead readAhead = this.parts.readAhead;
		if (!this.mayReadAhead || !readAhead.enter()) {
			return;
		}
		ReadAheadTurn turn = new ReadAheadTurn(this);
		this.turn = turn;
		if (!this.claimed.compareAndSet(false, true)) {
			this.turn = null; // admitted meanwhile: its thread runs it
			readAhead.leave();
			return;
		}
		readAhead.start(turn, this.task);
	}

	@Override
	public void startsOnVirtualThread() {
		long now = System.nanoTime();
		this.startedOnVirtualThreadAt = now;
		admitted(now);
	}

	private void admitted(long now) {
		if (leaveQueue()) {
			this.parts.recorder.countQueueWait(now - this.submittedAt);
		}
	}

	/**
	 * Marks the task decided (admitted, refused, or gone), once.
	 * @return whether it was waiting behind the limit until now, and so no longer counts
	 * in the queue depth
	 */
	private boolean leaveQueue() {
		if (this.state.getAndSet(DONE) == WAITING) {
			this.parts.recorder.leaveQueue();
			return true;
		}
		return false;
	}

	private void countRefused(boolean timedOut) {
		leaveQueue();
		this.parts.recorder.countRejected(timedOut);
	}

	@Override
	public void run() {
		if (this.state.get() != DONE) {
			admitted(System.nanoTime()); // a pool thread took it
		}
		try {
			if (this.claimed.compareAndSet(false, true)) {
				this.parts.recorder.run(this.task, this.submittedAt, this.startedOnVirtualThreadAt);
				return;
			}
			// read ahead: this thread is the request's turn; it runs what the request hands over
			Runnable work = this.turn.admit();
			if (work != null) {
				this.parts.recorder.run(work, this.submittedAt, this.startedOnVirtualThreadAt);
			}
		}
		finally {
			giveTurnBack();
		}
	}

	/**
	 * Hands the task to the threads, on the caller's thread, after a turn of the executor's
	 * {@link ExecutorSettings.TaskLimit} when it has one. A task the threads refuse runs
	 * refused when they answer refusals ({@link ExecutorSettings.OverloadProtection}).
	 * @param threads the executor's threads
	 * @throws TaskRejectedException when no turn of the task limit came in time, or the
	 * caller was interrupted while it waited
	 * @throws RejectedExecutionException when the threads refuse the task and do not
	 * answer refusals
	 */
	void handOver(SwitchableThreads threads) {
		this.parts.recorder.countSubmitted();
		if (this.parts.turns != null) {
			takeTurn();
		}
		try {
			threads.execute(this);
		}
		catch (RejectedExecutionException ex) {
			if (!threads.answersRefusals()) {
				giveTurnBack();
				this.parts.recorder.countRejected(false);
				throw ex;
			}
			refuse(Refusal.QUEUE_FULL);
		}
	}

	/**
	 * Waits, on the caller's thread, for a turn of the {@link ExecutorSettings.TaskLimit};
	 * counts in the queue depth while it waits.
	 * @throws TaskRejectedException when no turn came within the queue timeout, or the
	 * caller was interrupted while it waited
	 */
	private void takeTurn() {
		TaskTurns turns = this.parts.turns;
		boolean taken;
		try {
			taken = turns.takeFree();
			if (!taken) {
				waitsBehindLimit();
				taken = turns.await();
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			countRefused(false);
			throw turns.interrupted(this.parts.executor);
		}
		if (!taken) {
			countRefused(true);
			throw turns.timedOut(this.parts.executor);
		}
		this.holdsTurn = true;
		admitted(System.nanoTime());
	}

	/**
	 * Gives the turn of the {@link ExecutorSettings.TaskLimit} back, once: the task ended,
	 * or the threads refused it.
	 */
	private void giveTurnBack() {
		if (this.holdsTurn) {
			this.holdsTurn = false;
			this.parts.turns.giveBack();
		}
	}

	/**
	 * Runs the task outside the limits, marked with the refusal: it was accepted (a
	 * connection the server read from), so it is answered, not dropped. A task read
	 * ahead is answered on its own thread, which its turn tells.
	 */
	void refuse(Refusal refusal) {
		ReadAheadTurn turn = this.turn;
		if (turn != null && !turn.refuse(refusal)) {
			return; // it left the queue already
		}
		countRefused(refusal == Refusal.QUEUE_TIMEOUT || refusal == Refusal.IDLE_TIMEOUT);
		if (turn == null) {
			this.parts.refused.run(refusal, this.task);
		}
	}

	/**
	 * The request left the queue before its turn: it ran on its own thread, outside the
	 * limits (a health probe, or a task whose request was not whole yet).
	 */
	@Override
	public void left() {
		leaveQueue();
		this.parts.recorder.countLeft();
	}

}
