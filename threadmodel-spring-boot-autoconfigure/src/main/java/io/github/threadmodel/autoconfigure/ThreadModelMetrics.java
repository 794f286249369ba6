package io.github.threadmodel.autoconfigure;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

import io.github.threadmodel.executor.ModelSwitch;
import io.github.threadmodel.executor.Refusal;
import io.github.threadmodel.executor.TaskRecorder;
import io.github.threadmodel.executor.ThreadModel;
import io.github.threadmodel.executor.ThreadModelExecutor;
import io.github.threadmodel.internal.requests.AsyncRequests;
import io.github.threadmodel.internal.requests.RequestCounts;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * Micrometer meters for the thread model, registered once with identities that no switch
 * changes: no meter carries the model as a tag, so counters never restart and gauges keep
 * one series across switches.
 * <ul>
 * <li>{@code threadmodel.model} (tags {@code model}, {@code server}): one gauge per model,
 * 1 for the model in force and 0 for the other (a state set: an info meter whose
 * {@code model} tag changed would be a new series at each switch).</li>
 * <li>{@code threadmodel.switches} (tags {@code from}, {@code to}, {@code server}): switches
 * of the server's model, once per switch (the task executor following it is not counted
 * again), every pair registered from the start at 0.</li>
 * <li>{@code threadmodel.requests.received}, {@code .completed}, {@code .bypassed},
 * {@code .rejected} (tag
 * {@code server}; {@code rejected} also {@code reason}): HTTP requests, as
 * {@link RequestCounts} counts them.</li>
 * <li>{@code threadmodel.requests.async.open} (gauge) and
 * {@code threadmodel.requests.async.started} (counter), tag {@code server}, on servlet
 * servers: requests in asynchronous processing ({@code Callable}, {@code DeferredResult},
 * {@code StreamingResponseBody}, server-sent events), which hold no request thread and are
 * therefore not in {@code executor.active}, as {@link AsyncRequests} counts them.</li>
 * <li>{@code threadmodel.queue.wait} and {@code threadmodel.carrier.wait} (tags
 * {@code name}, {@code server}): per executor, the tasks that waited behind the limit and
 * how long, and the tasks whose virtual thread waited for a carrier and how long.</li>
 * <li>Micrometer's own executor meters, as its {@code ExecutorServiceMetrics} names them and
 * as Spring Boot tags its executors (tag {@code name}, the executor's bean name), so that
 * dashboards made for them show the starter's executors: {@code executor.active},
 * {@code executor.queued}, {@code executor.pool.size}, {@code executor.pool.max},
 * {@code executor.completed}. They carry no {@code server} tag: Prometheus needs every
 * meter of a name to have the same tag keys as Micrometer's. Each lane's executor has
 * them too, and the wait meters above, with {@code name} {@code lane-<name>}.</li>
 * </ul>
 */
class ThreadModelMetrics implements MeterBinder {

	/**
	 * The request executor's {@code name} tag: its bean name.
	 */
	public static final String REQUEST_EXECUTOR_NAME = "threadModelRequestExecutor";

	/**
	 * The application task executor's {@code name} tag: its bean name, as Spring Boot tags
	 * its own application task executor.
	 */
	public static final String TASK_EXECUTOR_NAME = "applicationTaskExecutor";

	/**
	 * The health probes' lane's {@code name} tag: its bean name. Its thread pool is bound by
	 * Micrometer's own {@code ExecutorServiceMetrics}, not here.
	 */
	public static final String PROBE_LANE_NAME = "threadModelProbeLane";

	private final ThreadModelExecutor requests;

	private final Map<String, ThreadModelExecutor> executors = new LinkedHashMap<>();

	private final RequestCounts requestCounts;

	private final AsyncRequests asyncRequests;

	private final Supplier<String> server;

	private final Map<String, AtomicLong> switches = new LinkedHashMap<>();

	/**
	 * Creates the binder; it counts the switches of the request executor from now on.
	 * @param requests the request executor
	 * @param tasks the application task executor, or {@code null} when it is not the
	 * starter's
	 * @param requestCounts the HTTP requests
	 * @param asyncRequests the servlet requests in asynchronous processing, or {@code null}
	 * on WebFlux
	 * @param server supplies the web server's name when the meters are bound
	 * @param lanes the lanes' executors by lane name, empty without lanes
	 */
	public ThreadModelMetrics(ThreadModelExecutor requests, ThreadModelExecutor tasks, RequestCounts requestCounts,
			AsyncRequests asyncRequests, Supplier<String> server, Map<String, ThreadModelExecutor> lanes) {
		this.asyncRequests = asyncRequests;
		this.requests = requests;
		this.executors.put(REQUEST_EXECUTOR_NAME, requests);
		if (tasks != null) {
			this.executors.put(TASK_EXECUTOR_NAME, tasks);
		}
		lanes.forEach((name, executor) -> this.executors.put("lane-" + name, executor));
		this.requestCounts = requestCounts;
		this.server = server;
		for (ThreadModel from : ThreadModel.values()) {
			for (ThreadModel to : ThreadModel.values()) {
				this.switches.put(key(from, to), new AtomicLong());
			}
		}
		requests.onSwitch(this::switched);
	}

	private void switched(ModelSwitch change) {
		this.switches.get(key(change.from(), change.to())).incrementAndGet();
	}

	private static String key(ThreadModel from, ThreadModel to) {
		return from.id() + ">" + to.id();
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		Tags server = Tags.of("server", this.server.get());
		for (ThreadModel model : ThreadModel.values()) {
			Gauge.builder("threadmodel.model", this.requests, (executor) -> (executor.getModel() == model) ? 1 : 0)
				.description("Whether the model is the one in force for the web server's requests (1) or not (0)")
				.tags(server.and("model", model.id()))
				.register(registry);
		}
		for (ThreadModel from : ThreadModel.values()) {
			for (ThreadModel to : ThreadModel.values()) {
				FunctionCounter.builder("threadmodel.switches", this.switches.get(key(from, to)), AtomicLong::get)
					.description("Switches of the web server's thread model")
					.tags(server.and("from", from.id(), "to", to.id()))
					.register(registry);
			}
		}
		bindRequests(registry, server);
		this.executors.forEach((name, executor) -> bindExecutor(registry, name, executor, server));
	}

	private void bindRequests(MeterRegistry registry, Tags server) {
		RequestCounts counts = this.requestCounts;
		FunctionCounter.builder("threadmodel.requests.received", counts, RequestCounts::received)
			.description("HTTP requests received by the web server's application")
			.tags(server)
			.register(registry);
		FunctionCounter.builder("threadmodel.requests.completed", counts, RequestCounts::completed)
			.description("HTTP requests finished, the 503 answers to refused requests among them")
			.tags(server)
			.register(registry);
		FunctionCounter.builder("threadmodel.requests.bypassed", counts, RequestCounts::bypassed)
			.description("Health probes that ran at once, outside the limits, instead of waiting or being refused")
			.tags(server)
			.register(registry);
		for (Refusal refusal : Refusal.values()) {
			FunctionCounter.builder("threadmodel.requests.rejected", counts, (c) -> c.rejected(refusal))
				.description("503 answers written to requests refused under overload")
					.tags(server.and("reason", refusal.id()))
				.register(registry);
		}
		if (this.asyncRequests != null) {
			Gauge.builder("threadmodel.requests.async.open", this.asyncRequests, AsyncRequests::open)
				.description("Requests in asynchronous processing now; they hold no request thread")
				.tags(server)
				.register(registry);
			FunctionCounter.builder("threadmodel.requests.async.started", this.asyncRequests, AsyncRequests::started)
				.description("Requests that went into asynchronous processing")
				.tags(server)
				.register(registry);
		}
	}

	private static void bindExecutor(MeterRegistry registry, String name, ThreadModelExecutor executor, Tags server) {
		Tags tags = Tags.of("name", name);
		TaskRecorder recorder = executor.recorder();
		gauge(registry, "executor.active", "The approximate number of threads that are actively executing tasks",
				BaseUnits.THREADS, recorder, tags, TaskRecorder::running);
		gauge(registry, "executor.queued", "The approximate number of tasks that are queued for execution",
				BaseUnits.TASKS, recorder, tags, TaskRecorder::queued);
		gauge(registry, "executor.pool.size", "The current number of threads in the pool", BaseUnits.THREADS,
				executor, tags, (e) -> {
					Integer poolSize = e.poolSize();
					return (poolSize != null) ? poolSize : 0;
				});
		gauge(registry, "executor.pool.max", "The maximum allowed number of threads in the pool", BaseUnits.THREADS,
				executor, tags, ThreadModelMetrics::limit);
		FunctionCounter.builder("executor.completed", recorder, TaskRecorder::completed)
			.description("The approximate total number of tasks that have completed execution")
			.baseUnit(BaseUnits.TASKS)
			.tags(tags)
			.register(registry);
		Tags waitTags = tags.and(server);
		FunctionTimer
			.builder("threadmodel.queue.wait", recorder.queueWait(), TaskRecorder.Waits::count,
					(waits) -> waits.total().toNanos(), TimeUnit.NANOSECONDS)
			.description("Tasks that waited behind the limit (every platform thread busy, or every permit of the "
					+ "virtual concurrency limit taken) before they got a thread, and how long")
			.tags(waitTags)
			.register(registry);
		FunctionTimer
			.builder("threadmodel.carrier.wait", recorder.carrierWait(), TaskRecorder.Waits::count,
					(waits) -> waits.total().toNanos(), TimeUnit.NANOSECONDS)
			.description("Tasks that got a virtual thread of their own, and how long that thread waited for a "
					+ "carrier thread")
			.tags(waitTags)
			.register(registry);
	}

	/**
	 * The most tasks that run at once: the platform pool's limit, or the virtual
	 * concurrency limit; NaN when there is none.
	 */
	private static double limit(ThreadModelExecutor executor) {
		Integer maxPoolSize = executor.maxPoolSize();
		if (maxPoolSize != null) {
			return maxPoolSize;
		}
		Integer maxConcurrency = executor.maxConcurrency();
		return (maxConcurrency != null) ? maxConcurrency : Double.NaN;
	}

	private static <T> void gauge(MeterRegistry registry, String name, String description, String baseUnit,
			T source, Tags tags, ToDoubleFunction<T> value) {
		Gauge.builder(name, source, value)
			.description(description)
			.baseUnit(baseUnit)
			.tags(tags)
			.register(registry);
	}

}
