package io.github.threadmodel.autoconfigure;

import java.util.List;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.function.Supplier;

import io.github.threadmodel.actuate.ThreadModelDescriptor;
import io.github.threadmodel.actuate.ThreadModelDescriptor.AsyncRequestsDescriptor;
import io.github.threadmodel.actuate.ThreadModelDescriptor.AutoDecisionDescriptor;
import io.github.threadmodel.actuate.ThreadModelDescriptor.AutoDescriptor;
import io.github.threadmodel.actuate.ThreadModelDescriptor.ConnectionsDescriptor;
import io.github.threadmodel.actuate.ThreadModelDescriptor.ExecutorDescriptor;
import io.github.threadmodel.actuate.ThreadModelDescriptor.ExecutorTasksDescriptor;
import io.github.threadmodel.actuate.ThreadModelDescriptor.FiguresDescriptor;
import io.github.threadmodel.actuate.ThreadModelDescriptor.FlavourDescriptor;
import io.github.threadmodel.actuate.ThreadModelDescriptor.LaneDescriptor;
import io.github.threadmodel.actuate.ThreadModelDescriptor.NettyDescriptor;
import io.github.threadmodel.actuate.ThreadModelDescriptor.PinnedSiteDescriptor;
import io.github.threadmodel.actuate.ThreadModelDescriptor.PinningDescriptor;
import io.github.threadmodel.actuate.ThreadModelDescriptor.ProbeLaneDescriptor;
import io.github.threadmodel.actuate.ThreadModelDescriptor.RuntimeDescriptor;
import io.github.threadmodel.actuate.ThreadModelDescriptor.SchedulerDescriptor;
import io.github.threadmodel.actuate.ThreadModelDescriptor.SwitchDescriptor;
import io.github.threadmodel.actuate.ThreadModelDescriptor.WaitDescriptor;
import io.github.threadmodel.executor.ExecutorStats;
import io.github.threadmodel.executor.ModelSwitch;
import io.github.threadmodel.executor.Refusal;
import io.github.threadmodel.executor.SwitchSource;
import io.github.threadmodel.executor.TaskRecorder;
import io.github.threadmodel.executor.ThreadModel;
import io.github.threadmodel.executor.ThreadModelExecutor;
import io.github.threadmodel.executor.ThreadModelSwitcher;
import io.github.threadmodel.internal.actuate.ServerKind;
import io.github.threadmodel.internal.actuate.StartupTimeline;
import io.github.threadmodel.internal.auto.AutoThreadModel;
import io.github.threadmodel.internal.auto.AutoThreadModelPolicy.WorkloadSample;
import io.github.threadmodel.internal.flavour.RuntimeFlavour;
import io.github.threadmodel.internal.lanes.Lanes;
import io.github.threadmodel.internal.overload.ProbeLane;
import io.github.threadmodel.internal.requests.AsyncRequests;
import io.github.threadmodel.internal.requests.RequestCounts;
import io.github.threadmodel.internal.scheduler.VirtualThreadScheduler;
import io.github.threadmodel.pinning.PinningStats;
import io.github.threadmodel.pinning.VirtualThreadPinning;

import org.springframework.lang.Nullable;
import org.springframework.util.function.SingletonSupplier;

/**
 * What {@code GET /actuator/threadmodel} answers, read from the starter's parts each time:
 * the internal types stay here, and the endpoint, which is API, sees only the
 * {@link ThreadModelDescriptor} records.
 */
final class ThreadModelDescription implements Supplier<ThreadModelDescriptor> {

	private final String startupSource;

	private final ThreadModelExecutor requests;

	private final ThreadModelExecutor tasks;

	private final RequestCounts requestCounts;

	private final ThreadModelSwitcher switcher;

	private final ConnectionsDescriptor connections;

	private final StartupTimeline startupTimeline;

	private final ServerKind serverKind;

	private final VirtualThreadPinning pinning;

	private final AutoThreadModel auto;

	private final AsyncRequests asyncRequests;

	private final Lanes lanes;

	private final ProbeLane probeLane;

	// Detected on the first read, so that it costs the application's startup nothing.
	private final SingletonSupplier<RuntimeDescriptor> runtime = SingletonSupplier.of(() -> new RuntimeDescriptor(
			System.getProperty("java.version"), System.getProperty("java.vendor"),
			Runtime.getRuntime().availableProcessors(), flavour(RuntimeFlavour.detect())));

	/**
	 * The last switch that changed the model (not only its limits), or {@code null}
	 * before the first.
	 */
	private volatile ModelSwitch lastModelChange;

	/**
	 * Creates the description.
	 * @param startupSource what chose the model at startup: the property, or
	 * {@code default}
	 * @param requests the request executor
	 * @param tasks the application task executor when it is the starter's, or {@code null}
	 * @param requestCounts the HTTP requests
	 * @param switcher switches the model (whether it may)
	 * @param connections the accept backlog and the OS cap on it
	 * @param startupTimeline the startup steps
	 * @param serverKind names the web server
	 * @param pinning the pinning detection, or {@code null} when it is off
	 * @param auto {@code app.threads.model=auto}, or {@code null} without it
	 * @param asyncRequests the servlet requests in asynchronous processing, or {@code null}
	 * on WebFlux
	 * @param lanes the lanes, or {@code null} without
	 * @param probeLane the health probes' lane, or {@code null} on WebFlux
	 */
	public ThreadModelDescription(String startupSource, ThreadModelExecutor requests,
			@Nullable ThreadModelExecutor tasks, RequestCounts requestCounts, ThreadModelSwitcher switcher,
			ConnectionsDescriptor connections, StartupTimeline startupTimeline, ServerKind serverKind,
			@Nullable VirtualThreadPinning pinning, @Nullable AutoThreadModel auto,
			@Nullable AsyncRequests asyncRequests, @Nullable Lanes lanes, @Nullable ProbeLane probeLane) {
		this.startupSource = startupSource;
		this.requests = requests;
		this.tasks = tasks;
		this.requestCounts = requestCounts;
		this.switcher = switcher;
		this.connections = connections;
		this.startupTimeline = startupTimeline;
		this.serverKind = serverKind;
		this.pinning = pinning;
		this.auto = auto;
		this.asyncRequests = asyncRequests;
		this.lanes = lanes;
		this.probeLane = probeLane;
		requests.onSwitch((change) -> {
			if (change.from() != change.to()) {
				this.lastModelChange = change;
			}
		});
	}

	@Override
	public ThreadModelDescriptor get() {
		String server = this.serverKind.name();
		return new ThreadModelDescriptor(this.requests.getModel().id(), modelSource(), server,
				requests(this.requests, this.requestCounts, this.asyncRequests),
				(this.tasks != null) ? tasks(this.tasks) : null, "netty".equals(server) ? NettyDescriptor.WEBFLUX : null,
				scheduler(VirtualThreadScheduler.read()), this.connections, this.startupTimeline.steps(),
				this.runtime.obtain(), this.switcher.isEnabled(),
				this.requests.switchHistory().stream().map(ThreadModelDescription::change).toList(),
				(this.pinning != null) ? pinning(this.pinning.isRecording(), this.pinning.stats()) : null,
				(this.auto != null) ? auto(this.auto.status(), this.requests) : null, this.requests.admission(),
				lanes(), (this.probeLane != null) ? probeLane(this.probeLane) : null);
	}

	private static ProbeLaneDescriptor probeLane(ProbeLane lane) {
		ThreadPoolExecutor threads = lane.threads();
		return new ProbeLaneDescriptor(ThreadModel.PLATFORM.id(), lane.paths().paths().stream().sorted().toList(),
				threads.getMaximumPoolSize(), threads.getPoolSize(), threads.getActiveCount(), threads.getQueue().size(),
				threads.getCompletedTaskCount());
	}

	private List<LaneDescriptor> lanes() {
		if (this.lanes == null) {
			return List.of();
		}
		return this.lanes.all()
			.stream()
			.map((lane) -> new LaneDescriptor(lane.name(), lane.executor().getModel().id(), lane.paths(),
					this.lanes.annotatedHandlers(lane), tasks(lane.executor()), lane.executor().admission(),
					lane.executor().switchHistory().stream().map(ThreadModelDescription::change).toList()))
			.toList();
	}

	/**
	 * What chose the model in force: the startup's choice until a switch changes the
	 * model, then who made the last such switch ({@code endpoint}, {@code configuration});
	 * auto's own switches keep {@code app.threads.model=auto}, the startup's choice.
	 */
	private String modelSource() {
		ModelSwitch change = this.lastModelChange;
		if (change == null || change.source() == SwitchSource.AUTO) {
			return this.startupSource;
		}
		return change.source().id();
	}

	/**
	 * The figures of the request executor, with the HTTP requests as counted by the
	 * starter's filter.
	 */
	private static ExecutorDescriptor requests(ThreadModelExecutor executor, RequestCounts requests,
			AsyncRequests asyncRequests) {
		return executor(executor, requests.received(), requests.completed(), requests.rejected(),
				requests.rejected(Refusal.QUEUE_TIMEOUT), requests.rejected(Refusal.IDLE_TIMEOUT), requests.bypassed(),
				(asyncRequests != null) ? new AsyncRequestsDescriptor(asyncRequests.open(), asyncRequests.peakOpen(),
						asyncRequests.started()) : null);
	}

	/**
	 * The figures of an executor whose tasks are what it counts.
	 */
	private static ExecutorDescriptor tasks(ThreadModelExecutor executor) {
		TaskRecorder tasks = executor.recorder();
		return executor(executor, tasks.submitted(), tasks.completed(), tasks.rejected(), tasks.timedOut(), null,
				null, null);
	}

	private static ExecutorDescriptor executor(ThreadModelExecutor executor, long submitted, long completed,
			long rejected, long rejectedTimedOut, Long rejectedIdleTimeout, Long bypassed,
			AsyncRequestsDescriptor async) {
		TaskRecorder tasks = executor.recorder();
		return new ExecutorDescriptor(executor.getModel().id(), submitted, completed, rejected, rejectedTimedOut,
				rejectedIdleTimeout, bypassed, tasks.running(), tasks.peakRunning(), tasks.queued(),
				tasks.peakQueued(), waits(tasks.queueWait()), waits(tasks.carrierWait()), executor.poolSize(),
				executor.maxPoolSize(), executor.maxConcurrency(),
				new ExecutorTasksDescriptor(tasks.submitted(), tasks.completed(), tasks.rejected()), async);
	}

	private static WaitDescriptor waits(TaskRecorder.Waits waits) {
		ExecutorStats.Wait wait = waits.snapshot();
		return new WaitDescriptor(wait.count(), Millis.of(wait.average()), Millis.of(wait.max()));
	}

	private static SwitchDescriptor change(ModelSwitch change) {
		return new SwitchDescriptor(change.at().toString(), change.from().id(), change.to().id(),
				change.requestedBy(), change.source().id(), change.handedOver());
	}

	private static AutoDescriptor auto(AutoThreadModel.Status status, ThreadModelExecutor requests) {
		return new AutoDescriptor(status.active(), status.pausedBy(), requests.getModel().id(), status.lastReason(),
				figures(status.lastSample()), status.decisions()
					.stream()
					.map((decision) -> new AutoDecisionDescriptor(decision.at().toString(), decision.from().id(),
							decision.to().id(), decision.reason(), figures(decision.sample())))
					.toList());
	}

	private static FiguresDescriptor figures(WorkloadSample sample) {
		if (sample == null) {
			return null;
		}
		return new FiguresDescriptor(sample.model().id(), sample.window().toMillis(), sample.completed(),
				sample.queued(), sample.poolExhausted(), Millis.of(sample.threadWait()),
				Math.round(sample.cpuShare() * 1000) / 1000.0, Millis.of(sample.schedulingDelay()),
				Millis.of(sample.longestSchedulingDelay()));
	}

	private static PinningDescriptor pinning(boolean recording, PinningStats stats) {
		return new PinningDescriptor(recording, Millis.of(stats.threshold()), stats.count(),
				Millis.of(stats.totalTime()), stats.sites()
					.stream()
					.map((site) -> new PinnedSiteDescriptor(site.site().className(), site.site().methodName(),
							site.count(), Millis.of(site.totalTime()), site.reason(), site.lanes()))
					.toList(),
				stats.untrackedCount());
	}

	private static SchedulerDescriptor scheduler(VirtualThreadScheduler scheduler) {
		return (scheduler != null) ? new SchedulerDescriptor(scheduler.parallelism(), scheduler.poolSize(),
				scheduler.mounted(), scheduler.queued()) : null;
	}

	private static FlavourDescriptor flavour(RuntimeFlavour flavour) {
		return new FlavourDescriptor(flavour.name(), flavour.cds(), flavour.aotCache(), flavour.springAot(),
				flavour.nativeImage());
	}

}
