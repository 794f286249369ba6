package io.github.threadmodel.actuate;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

import io.github.threadmodel.ExecutorStats;
import io.github.threadmodel.ThreadModelExecutor;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * Micrometer meters for the starter's executors, named {@code threadmodel.requests.*}
 * for the request executor and {@code threadmodel.tasks.*} for the application task
 * executor, tagged with {@code model} and {@code server}. They read the executor's own
 * counters, so they work the same on platform and virtual threads.
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
			String prefix = "threadmodel." + role;
			Tags tags = Tags.of("model", executor.getModel().id(), "server", server);
			gauge(registry, prefix + ".active", "Tasks running now", executor, tags, ExecutorStats::running);
			gauge(registry, prefix + ".queued", "Tasks waiting for a thread (queue depth)", executor, tags,
					ExecutorStats::queued);
			gauge(registry, prefix + ".pool.size", "Platform threads in the pool (NaN on virtual threads)", executor,
					tags, (stats) -> (stats.poolSize() != null) ? stats.poolSize() : Double.NaN);
			FunctionCounter.builder(prefix + ".completed", executor, (e) -> e.stats().completed())
				.description("Tasks finished")
				.tags(tags)
				.register(registry);
			FunctionCounter.builder(prefix + ".rejected", executor, (e) -> e.stats().rejected())
				.description("Tasks refused: queue full or executor closed")
				.tags(tags)
				.register(registry);
			FunctionTimer
				.builder(prefix + ".queue.wait", executor, (e) -> e.stats().started(),
						(e) -> e.stats().totalWait().toNanos(), TimeUnit.NANOSECONDS)
				.description("Time tasks waited for a thread")
				.tags(tags)
				.register(registry);
		});
	}

	private static void gauge(MeterRegistry registry, String name, String description, ThreadModelExecutor executor,
			Tags tags, ToDoubleFunction<ExecutorStats> value) {
		Gauge.builder(name, executor, (e) -> value.applyAsDouble(e.stats()))
			.description(description)
			.tags(tags)
			.register(registry);
	}

}
