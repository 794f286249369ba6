package io.github.threadmodel.executor;

import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

import io.github.threadmodel.executor.SwitchOutcome.Refused;
import io.github.threadmodel.executor.SwitchOutcome.Refused.Reason;
import io.github.threadmodel.executor.SwitchOutcome.Switched;
import io.github.threadmodel.executor.SwitchOutcome.Unchanged;

/**
 * The one way the thread model of a running application changes: the actuator endpoint,
 * a configuration change, {@code app.threads.model=auto} and the application's own code
 * each hand it a {@link SwitchRequest}, which is checked whole, then applied to the
 * request executor, and to the application task executor when it follows the server's
 * model. The task executor takes the new model only: the limits given are the request
 * executor's, and the task executor keeps its own. A request that names a lane switches
 * that lane's executor alone.
 * @since 0.1.0
 */
public final class ThreadModelSwitcher {

	private final ThreadModelExecutor requests;

	private final ThreadModelExecutor followingTasks;

	private final boolean enabled;

	private volatile Runnable resumeAuto;

	/** The lanes' executors, by name. */
	private final Map<String, ThreadModelExecutor> lanes = new ConcurrentHashMap<>();

	/**
	 * Creates a switcher.
	 * @param requests the request executor
	 * @param followingTasks the application task executor when it follows the server's
	 * model, otherwise {@code null}
	 * @param enabled whether switching is allowed at all
	 */
	public ThreadModelSwitcher(ThreadModelExecutor requests, ThreadModelExecutor followingTasks, boolean enabled) {
		this.requests = requests;
		this.followingTasks = followingTasks;
		this.enabled = enabled;
	}

	/**
	 * Whether switching is allowed at all.
	 * @return {@code false} when every request is refused
	 */
	public boolean isEnabled() {
		return this.enabled;
	}

	/**
	 * Sets what a request for {@link ThreadModelChoice#AUTO} resumes: the decisions of
	 * {@code app.threads.model=auto}, which register here when the application starts
	 * with it. Without it, such a request is refused.
	 * @param resume resumes auto's decisions
	 */
	public void onResumeAuto(Runnable resume) {
		this.resumeAuto = resume;
	}

	/**
	 * Lets requests switch a lane's executor.
	 * @param name the lane's name, as a {@link SwitchRequest#lane()} names it
	 * @param executor the lane's executor
	 */
	public void addLane(String name, ThreadModelExecutor executor) {
		this.lanes.put(name, executor);
	}

	/**
	 * Checks a request and applies it; nothing changes when it is refused.
	 * @param request the switch asked for
	 * @return what was done
	 */
	public synchronized SwitchOutcome apply(SwitchRequest request) {
		Refused refused = check(request);
		if (refused != null) {
			return refused;
		}
		if (request.lane() != null) {
			return applyToLane(request, this.lanes.get(request.lane()));
		}
		ThreadModelChoice choice = request.model();
		ThreadModel model = (choice != null && choice.fixedModel() != null) ? choice.fixedModel()
				: this.requests.getModel();
		ExecutorSettings next = this.requests.getSettings().with(model, request.maxThreads(), request.maxConcurrency());
		SwitchOutcome outcome = new Unchanged(model);
		if (!next.equals(this.requests.getSettings())) {
			outcome = new Switched(this.requests.switchTo(next, request.source(), request.requestedBy()));
			if (this.followingTasks != null && this.followingTasks.getModel() != model) {
				this.followingTasks.switchTo(this.followingTasks.getSettings().with(model, null, null),
						request.source(), request.requestedBy());
			}
		}
		if (choice == ThreadModelChoice.AUTO) {
			// after the limits: their switch, not auto's own, pauses auto
			this.resumeAuto.run();
		}
		return outcome;
	}

	private static SwitchOutcome applyToLane(SwitchRequest request, ThreadModelExecutor lane) {
		ThreadModel model = (request.model() != null) ? request.model().fixedModel() : lane.getModel();
		ExecutorSettings next = lane.getSettings().with(model, request.maxThreads(), request.maxConcurrency());
		if (next.equals(lane.getSettings())) {
			return new Unchanged(model);
		}
		return new Switched(lane.switchTo(next, request.source(), request.requestedBy()));
	}

	/**
	 * Switches to a model from the application's own code, recorded as
	 * {@link SwitchSource#APPLICATION}: {@link #apply} with exceptions for refusals.
	 * @param model the new model
	 * @param maxThreads the platform pool's new limit, or {@code null} to keep it
	 * @param maxConcurrency the new virtual concurrency limit, or {@code null} to keep it
	 * @param requestedBy who asks, for the history
	 * @return the switch of the request executor, or {@code null} when the request
	 * executor already runs that model with those limits: then nothing is switched nor
	 * recorded
	 * @throws IllegalArgumentException when a limit is below 1
	 * @throws IllegalStateException when switching is disabled
	 */
	public ModelSwitch switchTo(ThreadModel model, Integer maxThreads, Integer maxConcurrency, String requestedBy) {
		SwitchOutcome outcome = apply(new SwitchRequest(ThreadModelChoice.of(model), maxThreads, maxConcurrency,
				SwitchSource.APPLICATION, requestedBy));
		return switch (outcome) {
			case Switched switched -> switched.change();
			case Unchanged unchanged -> null;
			case Refused refused when refused.reason() == Reason.DISABLED ->
				throw new IllegalStateException(refused.message());
			case Refused refused -> throw new IllegalArgumentException(refused.message());
		};
	}

	private Refused check(SwitchRequest request) {
		if (!this.enabled) {
			return new Refused(Reason.DISABLED,
					"Switching the thread model is disabled by app.threads.switching.enabled=false");
		}
		if (request.lane() != null) {
			Refused lane = checkLane(request);
			if (lane != null) {
				return lane;
			}
		}
		else if (request.model() == ThreadModelChoice.AUTO && this.resumeAuto == null) {
			return new Refused(Reason.NO_AUTO,
					"Thread model 'auto' can only be resumed when the application started with app.threads.model=auto");
		}
		Refused limit = belowOne("maxThreads", request.maxThreads());
		return (limit != null) ? limit : belowOne("maxConcurrency", request.maxConcurrency());
	}

	private Refused checkLane(SwitchRequest request) {
		if (!this.lanes.containsKey(request.lane())) {
			String lanes = this.lanes.isEmpty() ? "none (app.threads.lanes.<name>)"
					: String.join(", ", new TreeSet<>(this.lanes.keySet()));
			return new Refused(Reason.INVALID_LANE, "No lane '%s'; lanes: %s".formatted(request.lane(), lanes));
		}
		if (request.model() == ThreadModelChoice.AUTO) {
			return new Refused(Reason.INVALID_LANE, "A lane runs on platform or virtual threads, not auto");
		}
		return null;
	}

	private static Refused belowOne(String name, Integer value) {
		return (value != null && value < 1)
				? new Refused(Reason.INVALID_LIMIT, name + " must be a whole number of 1 or more, not " + value) : null;
	}

}
