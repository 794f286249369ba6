package io.github.threadmodel.autoconfigure;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.github.threadmodel.executor.ExecutorSettings.AdaptiveAdmission;
import io.github.threadmodel.executor.ExecutorSettings.FixedAdmission;
import io.github.threadmodel.executor.ExecutorSettings.OverloadProtection;
import io.github.threadmodel.executor.ExecutorSettings.UnlimitedAdmission;
import io.github.threadmodel.executor.ExecutorSettings;
import io.github.threadmodel.executor.ThreadModel;
import io.github.threadmodel.executor.ThreadModelChoice;
import io.github.threadmodel.internal.auto.AutoThreadModelPolicy;
import io.github.threadmodel.internal.overload.Shedding;
import io.github.threadmodel.internal.requests.RequestCounts;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.core.env.Environment;

/**
 * The {@code app.threads.*} values, read once: checked ({@link ThreadModelPropertiesCheck}),
 * the models chosen, and turned into what the core's objects take. The only reader of the
 * configuration besides the binder.
 * <p>
 * The models are chosen here and nowhere else: {@code app.threads.model} wins; when it is
 * unset, {@code spring.threads.virtual.enabled=true} means virtual; otherwise platform.
 * {@code auto} starts on virtual threads, which serve blocking and light requests at least
 * as well as platform threads from the first request; CPU-bound requests that starve them
 * show within a window (see {@code AutoThreadModelPolicy}).
 */
final class ThreadModelSettings {

	static final String MODEL_PROPERTY = "app.threads.model";

	static final String SPRING_VIRTUAL_PROPERTY = "spring.threads.virtual.enabled";

	/**
	 * The source of the model when auto chooses it.
	 */
	static final String AUTO_SOURCE = "app.threads.model=auto";

	private static final Log logger = LogFactory.getLog(ThreadModelSettings.class);

	private static final int DEFAULT_MIN_THREADS = 10;

	/**
	 * How long a request waits for a turn under the virtual limit when
	 * {@code app.threads.virtual.queue-timeout} is not set: about when its client, or a proxy
	 * in front, gives up waiting (Jetty's idle timeout, a cloud load balancer's backend
	 * timeout, Kubernetes' grace period), so that a burst the heap lets run only slowly is
	 * answered 503 with Retry-After rather than not at all.
	 */
	static final Duration DEFAULT_QUEUE_TIMEOUT = Duration.ofSeconds(30);

	private final ThreadModelProperties properties;

	/** {@code spring.threads.virtual.enabled}, or {@code null} when unset. */
	private final Boolean springVirtual;

	private final ThreadModel model;

	private final String modelSource;

	private final ThreadModel taskModel;

	/**
	 * Checks every value and chooses the models: the one reading of the configuration,
	 * made at startup and again for each change the application applies while it runs
	 * ({@link ConfigurationSwitchListener}).
	 * @param properties the bound {@code app.threads.*} values
	 * @param environment where {@code spring.threads.virtual.enabled} and the written
	 * {@code app.threads.model} are read
	 */
	ThreadModelSettings(ThreadModelProperties properties, Environment environment) {
		ThreadModelPropertiesCheck.check(properties);
		ThreadModelPropertiesCheck.checkWrittenModel(environment);
		this.properties = properties;
		this.springVirtual = environment.getProperty(SPRING_VIRTUAL_PROPERTY, Boolean.class);
		ThreadModelChoice written = properties.getModel();
		ThreadModelChoice choice = serverChoice();
		this.model = (choice == ThreadModelChoice.AUTO) ? ThreadModel.VIRTUAL : choice.fixedModel();
		if (written == ThreadModelChoice.AUTO) {
			this.modelSource = AUTO_SOURCE;
		}
		else if (written != null) {
			this.modelSource = MODEL_PROPERTY;
		}
		else {
			this.modelSource = (choice == ThreadModelChoice.VIRTUAL) ? SPRING_VIRTUAL_PROPERTY : "default";
		}
		ThreadModelChoice tasks = properties.getTasks().getModel();
		// auto for tasks is refused by ThreadModelPropertiesCheck
		this.taskModel = (tasks != null) ? tasks.fixedModel() : this.model;
	}

	/**
	 * The model the web server's requests start on ({@code auto} starts on virtual threads).
	 * @return the model
	 */
	ThreadModel model() {
		return this.model;
	}

	/**
	 * Where the server's model came from.
	 * @return the property that chose it, {@value #AUTO_SOURCE}, or {@code default}
	 */
	String modelSource() {
		return this.modelSource;
	}

	/**
	 * The model of the application task executor: {@code app.threads.tasks.model}, or the
	 * server's.
	 * @return the model
	 */
	ThreadModel taskModel() {
		return this.taskModel;
	}

	/**
	 * What {@code app.threads.model} chooses for the server, or, unset, what
	 * {@code spring.threads.virtual.enabled} says ({@code auto} stays {@code auto}).
	 * @return the choice
	 */
	ThreadModelChoice serverChoice() {
		ThreadModelChoice written = this.properties.getModel();
		if (written != null) {
			return written;
		}
		return springVirtualThreads() ? ThreadModelChoice.VIRTUAL : ThreadModelChoice.PLATFORM;
	}

	/**
	 * Whether {@code spring.threads.virtual.enabled} is {@code true}: Spring Boot's own
	 * executors run on virtual threads whatever the starter's model.
	 * @return {@code spring.threads.virtual.enabled}, {@code false} when unset
	 */
	boolean springVirtualThreads() {
		return Boolean.TRUE.equals(this.springVirtual);
	}

	/**
	 * {@code app.threads.platform.max-threads}.
	 * @return the platform pool's limit
	 */
	int maxThreads() {
		return this.properties.getPlatform().getMaxThreads();
	}

	/**
	 * {@code app.threads.virtual.max-concurrency}.
	 * @return the fixed virtual limit, or {@code null}
	 */
	Integer maxConcurrency() {
		return this.properties.getVirtual().getMaxConcurrency();
	}

	/**
	 * Logs, once at startup, that {@code app.threads.model} and
	 * {@code spring.threads.virtual.enabled} disagree, when they do.
	 */
	void warnIfModelPropertiesDisagree() {
		ThreadModelChoice written = this.properties.getModel();
		if (written != null && written != ThreadModelChoice.AUTO && this.springVirtual != null
				&& this.springVirtual != (written == ThreadModelChoice.VIRTUAL)) {
			logger.warn("%s=%s and %s=%s disagree: the web server uses %s threads, as %s says".formatted(MODEL_PROPERTY,
					written.id(), SPRING_VIRTUAL_PROPERTY, this.springVirtual, written.id(), MODEL_PROPERTY));
		}
	}

	/**
	 * The settings of the request executor, on the model the server starts on.
	 * @return the executor settings
	 */
	ExecutorSettings requestExecutor() {
		return new ExecutorSettings(this.model, platformPool(), requestAdmission());
	}

	private ExecutorSettings.Admission requestAdmission() {
		ThreadModelProperties.Virtual virtual = this.properties.getVirtual();
		return switch (admission(virtual)) {
			case UNLIMITED -> UnlimitedAdmission.INSTANCE;
			case FIXED -> new FixedAdmission(virtual.getMaxConcurrency());
			case ADAPTIVE -> {
				ThreadModelProperties.Adaptive bounds = virtual.getAdaptive();
				yield new AdaptiveAdmission(bounds.getMinLimit(), bounds.getMaxLimit(), bounds.getHeapThreshold());
			}
		};
	}

	/**
	 * The lanes, by name, as configured ({@code app.threads.lanes.*}).
	 * @return the lanes' properties
	 */
	Map<String, ThreadModelProperties.Lane> lanes() {
		return this.properties.getLanes();
	}

	/**
	 * The settings of a lane's executor: its model, and its own limits where it has them,
	 * the request executor's otherwise (a virtual lane without a
	 * {@code max-concurrency} is admitted as the server's requests are).
	 * @param lane the lane's properties
	 * @return the executor settings
	 */
	ExecutorSettings laneExecutor(ThreadModelProperties.Lane lane) {
		ExecutorSettings.PlatformPool server = platformPool();
		ThreadModelProperties.LanePlatform platform = lane.getPlatform();
		int maxThreads = (platform.getMaxThreads() != null) ? platform.getMaxThreads() : server.maxThreads();
		Integer queueCapacity = (platform.getQueueCapacity() != null) ? platform.getQueueCapacity()
				: server.queueCapacity();
		ExecutorSettings.PlatformPool pool = new ExecutorSettings.PlatformPool(maxThreads,
				Math.min(server.minThreads(), maxThreads), queueCapacity, server.keepAlive());
		Integer maxConcurrency = lane.getVirtual().getMaxConcurrency();
		ExecutorSettings.Admission admission = (maxConcurrency != null) ? new FixedAdmission(maxConcurrency)
				: requestAdmission();
		return new ExecutorSettings(lane.getModel().fixedModel(), pool, admission);
	}

	/**
	 * How a lane's executor answers overload: as the request executor, with the lane's
	 * own queue timeout when it has one.
	 * @param lane the lane's properties
	 * @return the overload protection
	 */
	OverloadProtection laneOverload(ThreadModelProperties.Lane lane) {
		Duration queueTimeout = lane.getVirtual().getQueueTimeout();
		return (queueTimeout != null) ? new OverloadProtection(queueTimeout) : overload();
	}

	/**
	 * The settings of the application task executor on its model, none of them the
	 * request executor's limits: on virtual threads no limit; on platform threads a pool of
	 * its own with as many threads as the tasks running at once, up to the task limit when
	 * there is one (which bounds the tasks on either model), idle threads kept as the
	 * request pool keeps them ({@code min-threads}, {@code keep-alive}). The task limit
	 * itself is not here: it holds across switches ({@link ExecutorSettings.TaskLimit}).
	 * @param maxConcurrency the task limit, or {@code null} for none
	 * @return the executor settings
	 */
	ExecutorSettings taskExecutor(Integer maxConcurrency) {
		int maxThreads = (maxConcurrency != null) ? maxConcurrency : Integer.MAX_VALUE;
		ExecutorSettings.PlatformPool requests = platformPool();
		ExecutorSettings.PlatformPool pool = new ExecutorSettings.PlatformPool(maxThreads,
				Math.min(requests.minThreads(), maxThreads), null, requests.keepAlive());
		return new ExecutorSettings(this.taskModel, pool, UnlimitedAdmission.INSTANCE);
	}

	private ExecutorSettings.PlatformPool platformPool() {
		ThreadModelProperties.Platform platform = this.properties.getPlatform();
		int minThreads = (platform.getMinThreads() != null) ? platform.getMinThreads()
				: Math.min(DEFAULT_MIN_THREADS, platform.getMaxThreads());
		return new ExecutorSettings.PlatformPool(platform.getMaxThreads(), minThreads, platform.getQueueCapacity(),
				platform.getKeepAlive());
	}

	/**
	 * The admission in force: the one written, else fixed with a max-concurrency, else
	 * adaptive.
	 */
	static VirtualAdmission admission(ThreadModelProperties.Virtual virtual) {
		if (virtual.getAdmission() != null) {
			return virtual.getAdmission();
		}
		return (virtual.getMaxConcurrency() != null) ? VirtualAdmission.FIXED : VirtualAdmission.ADAPTIVE;
	}

	/**
	 * How the request executor answers overload.
	 * @return the overload protection
	 */
	OverloadProtection overload() {
		Duration queueTimeout = this.properties.getVirtual().getQueueTimeout();
		return new OverloadProtection((queueTimeout != null) ? queueTimeout : DEFAULT_QUEUE_TIMEOUT);
	}

	/**
	 * The {@code Retry-After} of a refused request.
	 * @return the duration
	 */
	Duration retryAfter() {
		return this.properties.getOverload().getRetryAfter();
	}

	/**
	 * The most servlet requests the request executor reads ahead of their turn at once: one
	 * for every 4 MB of the maximum heap, at least 16. A request read ahead holds the
	 * server's buffers for it (about 110 KB on Tomcat: docs/overload.md) and its thread's
	 * stack while it waits, which a burst of thousands on a small heap must not turn into an
	 * {@link OutOfMemoryError} (at one per megabyte, 128 would hold about 14 MB of a 128 MB heap);
	 * beyond the bound (and while the adaptive limit sees the heap under pressure), requests
	 * wait unread, as plain tasks.
	 * @return the bound
	 */
	int readAheadLimit() {
		return readAheadLimit(Runtime.getRuntime().maxMemory());
	}

	static int readAheadLimit(long maxHeap) {
		return (int) Math.min(Integer.MAX_VALUE, Math.max(16, maxHeap / (4 * 1024 * 1024)));
	}

	/**
	 * Whether the starter sheds load, from the 503 answers it writes.
	 * @param counts the 503 answers
	 * @return the tracker
	 */
	Shedding shedding(RequestCounts counts) {
		ThreadModelProperties.Readiness readiness = this.properties.getReadiness();
		return new Shedding(counts::rejected, Clock.systemUTC(), readiness.getSheddingFor(),
				readiness.getAcceptAfter());
	}

	/**
	 * Whether readiness follows shedding.
	 * @return {@code app.threads.readiness.refuse-when-shedding}
	 */
	boolean refuseTrafficWhenShedding() {
		return this.properties.getReadiness().isRefuseWhenShedding();
	}

	/**
	 * The paths of {@code app.threads.probes.paths}.
	 * @return the paths
	 */
	List<String> probePaths() {
		return this.properties.getProbes().getPaths();
	}

	/**
	 * The accept backlog the servers get, before the operating system's cap.
	 * @return the backlog
	 */
	int acceptBacklog() {
		return this.properties.getConnections().getAcceptBacklog();
	}

	/**
	 * The shortest virtual-thread pinning that is recorded.
	 * @return the threshold
	 */
	Duration pinningThreshold() {
		return this.properties.getPinning().getThreshold();
	}

	/**
	 * The thresholds of {@code auto}'s decisions.
	 * @return the thresholds
	 */
	AutoThreadModelPolicy.Thresholds autoThresholds() {
		ThreadModelProperties.Auto auto = this.properties.getAuto();
		return new AutoThreadModelPolicy.Thresholds(auto.getThreadWait(), auto.getCpuBusyShare(),
				auto.getSchedulingDelay(), auto.getSevereSchedulingDelay(), auto.getAgreeingWindows(),
				auto.getMinDwell());
	}

}
