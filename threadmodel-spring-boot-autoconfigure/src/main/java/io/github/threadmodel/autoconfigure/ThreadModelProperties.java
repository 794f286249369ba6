package io.github.threadmodel.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.github.threadmodel.executor.ThreadModelChoice;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration of the thread model of the embedded web server and the application task
 * executor. Values are checked, and turned into the core's objects, by
 * {@link ThreadModelSettings}.
 * @since 0.1.0
 */
@ConfigurationProperties("app.threads")
public class ThreadModelProperties {

	/**
	 * Thread model of the web server's request handling: 'platform', 'virtual', or 'auto'
	 * (switches between them as the measured workload asks, see app.threads.auto.*). When
	 * unset, 'virtual' if spring.threads.virtual.enabled is true, 'platform' otherwise.
	 */
	private ThreadModelChoice model;

	private final Platform platform = new Platform();

	private final Virtual virtual = new Virtual();

	private final Tasks tasks = new Tasks();

	private final Connections connections = new Connections();

	private final Switching switching = new Switching();

	private final Pinning pinning = new Pinning();

	private final Overload overload = new Overload();

	private final Probes probes = new Probes();

	private final Readiness readiness = new Readiness();

	private final Auto auto = new Auto();

	/**
	 * Lanes by name: routes whose requests run on threads of their own, with a model and
	 * limits of their own, instead of the server's request threads.
	 */
	private final Map<String, Lane> lanes = new LinkedHashMap<>();

	public ThreadModelChoice getModel() {
		return this.model;
	}

	public void setModel(ThreadModelChoice model) {
		this.model = model;
	}

	public Platform getPlatform() {
		return this.platform;
	}

	public Virtual getVirtual() {
		return this.virtual;
	}

	public Tasks getTasks() {
		return this.tasks;
	}

	public Connections getConnections() {
		return this.connections;
	}

	public Switching getSwitching() {
		return this.switching;
	}

	public Pinning getPinning() {
		return this.pinning;
	}

	public Overload getOverload() {
		return this.overload;
	}

	public Probes getProbes() {
		return this.probes;
	}

	public Readiness getReadiness() {
		return this.readiness;
	}

	public Auto getAuto() {
		return this.auto;
	}

	public Map<String, Lane> getLanes() {
		return this.lanes;
	}

	/**
	 * The bounded pool used by the 'platform' model.
	 */
	public static class Platform {

		/**
		 * Most platform threads in the pool; requests queue once all are busy.
		 */
		private int maxThreads = 200;

		/**
		 * Platform threads kept alive while idle. Defaults to 10, or to max-threads when that is
		 * lower.
		 */
		private Integer minThreads;

		/**
		 * Most requests that may wait for a platform thread. Unbounded when unset.
		 */
		private Integer queueCapacity;

		/**
		 * How long a platform thread above min-threads stays idle before it ends.
		 */
		private Duration keepAlive = Duration.ofSeconds(60);

		public int getMaxThreads() {
			return this.maxThreads;
		}

		public void setMaxThreads(int maxThreads) {
			this.maxThreads = maxThreads;
		}

		public Integer getMinThreads() {
			return this.minThreads;
		}

		public void setMinThreads(Integer minThreads) {
			this.minThreads = minThreads;
		}

		public Integer getQueueCapacity() {
			return this.queueCapacity;
		}

		public void setQueueCapacity(Integer queueCapacity) {
			this.queueCapacity = queueCapacity;
		}

		public Duration getKeepAlive() {
			return this.keepAlive;
		}

		public void setKeepAlive(Duration keepAlive) {
			this.keepAlive = keepAlive;
		}

	}

	/**
	 * The 'virtual' model.
	 */
	public static class Virtual {

		/**
		 * How many requests may run at once on virtual threads: 'adaptive' (a limit that
		 * follows what the heap can hold, see app.threads.virtual.adaptive.*), 'fixed'
		 * (max-concurrency) or 'unlimited'. Defaults to 'fixed' when max-concurrency is set,
		 * 'adaptive' otherwise.
		 */
		private VirtualAdmission admission;

		/**
		 * Most requests running at once on virtual threads, a fixed limit; the rest wait in
		 * arrival order.
		 */
		private Integer maxConcurrency;

		/**
		 * Longest a request may wait for a turn under the limit (adaptive or fixed) before the
		 * server answers it 503 with Retry-After. 30s when unset.
		 */
		private Duration queueTimeout;

		private final Adaptive adaptive = new Adaptive();

		public VirtualAdmission getAdmission() {
			return this.admission;
		}

		public void setAdmission(VirtualAdmission admission) {
			this.admission = admission;
		}

		public Adaptive getAdaptive() {
			return this.adaptive;
		}

		public Integer getMaxConcurrency() {
			return this.maxConcurrency;
		}

		public void setMaxConcurrency(Integer maxConcurrency) {
			this.maxConcurrency = maxConcurrency;
		}

		public Duration getQueueTimeout() {
			return this.queueTimeout;
		}

		public void setQueueTimeout(Duration queueTimeout) {
			this.queueTimeout = queueTimeout;
		}

	}

	/**
	 * The adaptive limit of the 'virtual' model (app.threads.virtual.admission=adaptive).
	 */
	public static class Adaptive {

		/**
		 * Least the adaptive limit falls to, however full the heap.
		 */
		private int minLimit = 20;

		/**
		 * Most the adaptive limit grows to.
		 */
		private int maxLimit = 10_000;

		/**
		 * Share (above 0, at most 1) of the maximum heap that, still used after a garbage
		 * collection, decreases the limit below the requests in flight.
		 */
		private double heapThreshold = 0.8;

		public int getMinLimit() {
			return this.minLimit;
		}

		public void setMinLimit(int minLimit) {
			this.minLimit = minLimit;
		}

		public int getMaxLimit() {
			return this.maxLimit;
		}

		public void setMaxLimit(int maxLimit) {
			this.maxLimit = maxLimit;
		}

		public double getHeapThreshold() {
			return this.heapThreshold;
		}

		public void setHeapThreshold(double heapThreshold) {
			this.heapThreshold = heapThreshold;
		}

	}

	/**
	 * The application task executor (@Async, Spring MVC async requests), bounded apart from
	 * the web server's requests.
	 */
	public static class Tasks {

		/**
		 * Thread model of the application task executor: 'platform' or 'virtual'. Defaults to
		 * the model of the web server.
		 */
		private ThreadModelChoice model;

		/**
		 * Most application tasks running at once, on either model; a caller that hands over
		 * one more waits for a turn. Unbounded when unset (then
		 * spring.task.execution.simple.concurrency-limit applies, if set).
		 */
		private Integer maxConcurrency;

		/**
		 * Longest a caller waits for a turn under max-concurrency before the task is refused
		 * with a TaskRejectedException. Waits until a task ends when unset (0 when
		 * spring.task.execution.simple.reject-tasks-when-limit-reached is true).
		 */
		private Duration queueTimeout;

		public ThreadModelChoice getModel() {
			return this.model;
		}

		public void setModel(ThreadModelChoice model) {
			this.model = model;
		}

		public Integer getMaxConcurrency() {
			return this.maxConcurrency;
		}

		public void setMaxConcurrency(Integer maxConcurrency) {
			this.maxConcurrency = maxConcurrency;
		}

		public Duration getQueueTimeout() {
			return this.queueTimeout;
		}

		public void setQueueTimeout(Duration queueTimeout) {
			this.queueTimeout = queueTimeout;
		}

	}

	/**
	 * How the web server takes in connections.
	 */
	public static class Connections {

		/**
		 * Accept backlog (pending connections the OS queues for the server), capped by the OS
		 * limit net.core.somaxconn. Applied to Tomcat, Jetty, Undertow and Netty unless the
		 * server's own property is set (server.tomcat.accept-count,
		 * server.undertow.options.socket.BACKLOG).
		 */
		private int acceptBacklog = 8192;

		public int getAcceptBacklog() {
			return this.acceptBacklog;
		}

		public void setAcceptBacklog(int acceptBacklog) {
			this.acceptBacklog = acceptBacklog;
		}

	}

	/**
	 * Switching the thread model while the application runs (POST /actuator/threadmodel).
	 */
	public static class Switching {

		/**
		 * Whether the thread model may be switched while the application runs. The endpoint's
		 * write access must be granted too (management.endpoint.threadmodel.access).
		 */
		private boolean enabled = true;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

	}

	/**
	 * Detection of virtual-thread pinning (JDK Flight Recorder event
	 * jdk.VirtualThreadPinned), shown at /actuator/threadmodel.
	 */
	public static class Pinning {

		/**
		 * Whether to record virtual-thread pinning by call site and log a warning the first
		 * time each call site pins. Needs the jdk.jfr module.
		 */
		private boolean enabled = true;

		/**
		 * Shortest pinning that is counted. Lower values record more events and cost more; the
		 * default is JFR's and Micrometer's (jvm.threads.virtual.pinned).
		 */
		private Duration threshold = Duration.ofMillis(20);

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public Duration getThreshold() {
			return this.threshold;
		}

		public void setThreshold(Duration threshold) {
			this.threshold = threshold;
		}

	}

	/**
	 * Answers to requests refused under overload (platform queue full, or virtual
	 * queue-timeout passed).
	 */
	public static class Overload {

		/**
		 * Retry-After of the 503 answer to a refused request, sent rounded up to whole
		 * seconds.
		 */
		private Duration retryAfter = Duration.ofSeconds(1);

		public Duration getRetryAfter() {
			return this.retryAfter;
		}

		public void setRetryAfter(Duration retryAfter) {
			this.retryAfter = retryAfter;
		}

	}

	/**
	 * Requests that never wait for a turn nor get a 503: Spring Boot's health endpoint and
	 * its groups (liveness, readiness, any group and their additional paths) always, and
	 * these.
	 */
	public static class Probes {

		/**
		 * More request paths that, like the health probes, run at once outside the limits.
		 * Each is matched exactly, after the servlet context path, as the client sends it.
		 */
		private List<String> paths = new ArrayList<>();

		public List<String> getPaths() {
			return this.paths;
		}

		public void setPaths(List<String> paths) {
			this.paths = paths;
		}

	}

	/**
	 * A lane: the routes whose requests run on its own executor, by path or by the
	 * {@code @ThreadLane} annotation on their handler.
	 */
	public static class Lane {

		/**
		 * Request paths of the lane's routes, as Spring path patterns after the servlet
		 * context path, for example '/reports/**'. A path here wins over a @ThreadLane
		 * annotation.
		 */
		private List<String> paths = new ArrayList<>();

		/**
		 * Thread model of the lane's requests: 'platform' or 'virtual'.
		 */
		private ThreadModelChoice model = ThreadModelChoice.PLATFORM;

		private final LanePlatform platform = new LanePlatform();

		private final LaneVirtual virtual = new LaneVirtual();

		public List<String> getPaths() {
			return this.paths;
		}

		public void setPaths(List<String> paths) {
			this.paths = paths;
		}

		public ThreadModelChoice getModel() {
			return this.model;
		}

		public void setModel(ThreadModelChoice model) {
			this.model = model;
		}

		public LanePlatform getPlatform() {
			return this.platform;
		}

		public LaneVirtual getVirtual() {
			return this.virtual;
		}

	}

	/**
	 * A lane's pool of platform threads; what is unset is the server's
	 * (app.threads.platform.*).
	 */
	public static class LanePlatform {

		/**
		 * Maximum number of platform threads of the lane.
		 */
		private Integer maxThreads;

		/**
		 * Maximum number of the lane's requests waiting for a thread; beyond it they are
		 * answered 503. Unset: the server's queue capacity.
		 */
		private Integer queueCapacity;

		public Integer getMaxThreads() {
			return this.maxThreads;
		}

		public void setMaxThreads(Integer maxThreads) {
			this.maxThreads = maxThreads;
		}

		public Integer getQueueCapacity() {
			return this.queueCapacity;
		}

		public void setQueueCapacity(Integer queueCapacity) {
			this.queueCapacity = queueCapacity;
		}

	}

	/**
	 * A lane's admission on virtual threads; what is unset is the server's
	 * (app.threads.virtual.*).
	 */
	public static class LaneVirtual {

		/**
		 * Maximum number of the lane's requests running at once on virtual threads.
		 */
		private Integer maxConcurrency;

		/**
		 * How long a request of the lane waits for a turn before it is answered 503.
		 */
		private Duration queueTimeout;

		public Integer getMaxConcurrency() {
			return this.maxConcurrency;
		}

		public void setMaxConcurrency(Integer maxConcurrency) {
			this.maxConcurrency = maxConcurrency;
		}

		public Duration getQueueTimeout() {
			return this.queueTimeout;
		}

		public void setQueueTimeout(Duration queueTimeout) {
			this.queueTimeout = queueTimeout;
		}

	}

	/**
	 * Readiness while the starter sheds load (answers requests 503).
	 */
	public static class Readiness {

		/**
		 * Whether readiness goes REFUSING_TRAFFIC while the server sheds load for a sustained
		 * time, and back to ACCEPTING_TRAFFIC once calm. Off by default: every pod of a
		 * Service under the same load would leave it at once, with no endpoint left.
		 */
		private boolean refuseWhenShedding;

		/**
		 * How long the server sheds load, every second of it, before readiness refuses
		 * traffic.
		 */
		private Duration sheddingFor = Duration.ofSeconds(10);

		/**
		 * How long the server goes without shedding before readiness accepts traffic again.
		 */
		private Duration acceptAfter = Duration.ofSeconds(30);

		public boolean isRefuseWhenShedding() {
			return this.refuseWhenShedding;
		}

		public void setRefuseWhenShedding(boolean refuseWhenShedding) {
			this.refuseWhenShedding = refuseWhenShedding;
		}

		public Duration getSheddingFor() {
			return this.sheddingFor;
		}

		public void setSheddingFor(Duration sheddingFor) {
			this.sheddingFor = sheddingFor;
		}

		public Duration getAcceptAfter() {
			return this.acceptAfter;
		}

		public void setAcceptAfter(Duration acceptAfter) {
			this.acceptAfter = acceptAfter;
		}

	}

	/**
	 * How 'auto' (app.threads.model=auto) decides between platform and virtual threads.
	 */
	public static class Auto {

		/**
		 * How long each sample of the workload lasts; auto decides once per window.
		 */
		private Duration window = Duration.ofSeconds(1);

		/**
		 * Consecutive windows that must call for the same switch before auto makes it.
		 */
		private int agreeingWindows = 3;

		/**
		 * Least time after a switch (auto's or a manual one) before auto switches again.
		 */
		private Duration minDwell = Duration.ofSeconds(15);

		/**
		 * On platform threads: average wait of requests for a pool thread, while every thread
		 * of the pool is busy, from which threads run short. With the threads mostly blocked,
		 * auto then switches to virtual threads.
		 */
		private Duration threadWait = Duration.ofMillis(10);

		/**
		 * On platform threads: share (0 to 1) of the available processors' time the request
		 * threads must use to count as computing rather than blocked; below it, requests
		 * waiting for a thread make auto switch to virtual threads.
		 */
		private double cpuBusyShare = 0.5;

		/**
		 * On virtual threads: average wait of a new virtual thread for a carrier thread from
		 * which CPU-bound requests starve the others; auto then switches to platform threads.
		 */
		private Duration schedulingDelay = Duration.ofMillis(20);

		/**
		 * On virtual threads: wait of one new virtual thread for a carrier thread, still
		 * waiting, from which auto switches to platform threads at once, without agreeing
		 * windows (checked every tenth of a window).
		 */
		private Duration severeSchedulingDelay = Duration.ofMillis(500);

		public Duration getWindow() {
			return this.window;
		}

		public void setWindow(Duration window) {
			this.window = window;
		}

		public int getAgreeingWindows() {
			return this.agreeingWindows;
		}

		public void setAgreeingWindows(int agreeingWindows) {
			this.agreeingWindows = agreeingWindows;
		}

		public Duration getMinDwell() {
			return this.minDwell;
		}

		public void setMinDwell(Duration minDwell) {
			this.minDwell = minDwell;
		}

		public Duration getThreadWait() {
			return this.threadWait;
		}

		public void setThreadWait(Duration threadWait) {
			this.threadWait = threadWait;
		}

		public double getCpuBusyShare() {
			return this.cpuBusyShare;
		}

		public void setCpuBusyShare(double cpuBusyShare) {
			this.cpuBusyShare = cpuBusyShare;
		}

		public Duration getSchedulingDelay() {
			return this.schedulingDelay;
		}

		public void setSchedulingDelay(Duration schedulingDelay) {
			this.schedulingDelay = schedulingDelay;
		}

		public Duration getSevereSchedulingDelay() {
			return this.severeSchedulingDelay;
		}

		public void setSevereSchedulingDelay(Duration severeSchedulingDelay) {
			this.severeSchedulingDelay = severeSchedulingDelay;
		}

	}

}
