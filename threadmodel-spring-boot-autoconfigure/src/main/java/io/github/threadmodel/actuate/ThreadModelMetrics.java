package io.github.threadmodel.actuate;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

import io.github.threadmodel.executor.ExecutorStats;
import io.github.threadmodel.executor.ModelSwitch;
import io.github.threadmodel.executor.ThreadModelExecutor;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * Micrometer meters for the starter's executors, named {@code threadmodel.requests.*}
 * for the request executor and {@code threadmodel.tasks.*} for the application task
 * executor, tagged with {@code model} and {@code server}. They read the executor's own
 * counters, so they work the same on platform and virtual threads. When an executor
 * switches its model, its meters are registered again under the new {@code model} tag and
 * {@code threadmodel.switches} counts the switch.
 */
public class ThreadModelMetrics implements MeterBinder {

	private final Map<String, ThreadModelExecutor> executors = new LinkedHashMap<>();

	private final Supplier<String> server;

	/**
	 * Creates the binder.
	 * @param requests the request executor
	 * @param tasks the application task executor, or {@code null} when it is not the
	 * starter's
	 * @param server supplies the web server's name when the meters are bound
	 */
	public ThreadModelMetrics(ThreadModelExecutor requests, ThreadModelExecutor tasks, Supplier<String> server) {
		this.executors.put("requests", requests);
		if (tasks != null) {
			this.executors.put("tasks", tasks);
		}
		this.server = server;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		String server = this.server.get();
		this.executors.forEach((role, executor) -> {
			ExecutorMeters meters = new ExecutorMeters(registry, role, executor, server);
			meters.register();
			executor.onSwitch(meters::reregister);
		});
	}

	/**
	 * The meters of one executor in one registry.
	 */
	private static final class ExecutorMeters {

		private final MeterRegistry registry;

		private final String role;

		private final ThreadModelExecutor executor;

		private final String server;

		private final List<Meter> registered = new ArrayList<>();

		ExecutorMeters(MeterRegistry registry, String role, ThreadModelExecutor executor, String server) {
			this.registry = registry;
			this.role = role;
			this.executor = executor;
			this.server = server;
		}

		synchronized void reregister(ModelSwitch change) {
			this.registry
				.counter("threadmodel.switches", "executor", this.role, "from", change.from().id(), "to",
						change.to().id())
				.increment();
			this.registered.forEach(this.registry::remove);
			this.registered.clear();
			register();
		}

		synchronized void register() {
			String prefix = "threadmodel." + this.role;
			Tags tags = Tags.of("model", this.executor.getModel().id(), "server", this.server);
			ThreadModelExecutor executor = this.executor;
			gauge(prefix + ".active", "Tasks running now", tags, ExecutorStats::running);
			gauge(prefix + ".queued", "Tasks waiting for a thread (queue depth)", tags, ExecutorStats::queued);
			gauge(prefix + ".pool.size", "Platform threads in the pool (NaN on virtual threads)", tags,
					(stats) -> (stats.poolSize() != null) ? stats.poolSize() : Double.NaN);
			this.registered.add(FunctionCounter.builder(prefix + ".completed", executor, (e) -> e.stats().completed())
				.description("Tasks finished")
				.tags(tags)
				.register(this.registry));
			this.registered.add(FunctionCounter.builder(prefix + ".rejected", executor, (e) -> e.stats().rejected())
				.description("Tasks refused (requests answered 503 under overload): queue full, queue timeout passed, "
						+ "or executor closed")
				.tags(tags)
				.register(this.registry));
			this.registered.add(FunctionTimer
				.builder(prefix + ".queue.wait", executor, (e) -> e.stats().started(),
						(e) -> e.stats().totalWait().toNanos(), TimeUnit.NANOSECONDS)
				.description("Time tasks waited for a thread")
				.tags(tags)
				.register(this.registry));
		}

		private void gauge(String name, String description, Tags tags, ToDoubleFunction<ExecutorStats> value) {
			this.registered.add(Gauge.builder(name, this.executor, (e) -> value.applyAsDouble(e.stats()))
				.description(description)
				.tags(tags)
				.register(this.registry));
		}

	}

}
