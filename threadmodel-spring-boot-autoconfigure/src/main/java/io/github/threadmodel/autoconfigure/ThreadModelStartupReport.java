package io.github.threadmodel.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import io.github.threadmodel.executor.ExecutorSettings.AdaptiveAdmission;
import io.github.threadmodel.executor.ExecutorSettings.FixedAdmission;
import io.github.threadmodel.executor.ExecutorSettings.TaskLimit;
import io.github.threadmodel.executor.ExecutorSettings.UnlimitedAdmission;
import io.github.threadmodel.executor.ExecutorSettings;
import io.github.threadmodel.executor.ThreadModel;
import io.github.threadmodel.internal.actuate.ServerKind;
import io.github.threadmodel.internal.servers.ConnectionIntake;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.event.ApplicationStartedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.core.env.Environment;

/**
 * Says once, when the application has started, what the starter did: one INFO line with
 * the model and where it came from, the server, the limits in force, how long requests
 * wait at most on a server whose idle timeout would close their connection, and the
 * accept backlog; and one WARN for each thread property of the running server that the
 * user set and the starter makes ineffective, naming the starter's property that takes its place
 * (the task executor warns of Spring Boot's task properties itself, see
 * {@link SpringTaskExecution}). Shared by both Boot lines: it reads the
 * server's name and the {@link Environment} only.
 */
final class ThreadModelStartupReport implements ApplicationListener<ApplicationStartedEvent> {

	private static final Log logger = LogFactory.getLog(ThreadModelStartupReport.class);

	private static final String MAX_THREADS = "app.threads.platform.max-threads";

	private static final String MIN_THREADS = "app.threads.platform.min-threads";

	private static final String QUEUE_CAPACITY = "app.threads.platform.queue-capacity";

	private static final String KEEP_ALIVE = "app.threads.platform.keep-alive";

	/**
	 * The thread properties of each server that size the pool the starter's executor
	 * replaces, with the starter's property that takes the place of each. Acceptors,
	 * selectors and I/O threads stay the server's.
	 */
	private static final Map<String, Map<String, String>> SERVER_THREAD_PROPERTIES = Map.of("tomcat",
			Map.of("server.tomcat.threads.max", MAX_THREADS, "server.tomcat.threads.min-spare", MIN_THREADS,
					"server.tomcat.threads.max-queue-capacity", QUEUE_CAPACITY),
			"jetty",
			Map.of("server.jetty.threads.max", MAX_THREADS, "server.jetty.threads.min", MIN_THREADS,
					"server.jetty.threads.max-queue-capacity", QUEUE_CAPACITY, "server.jetty.threads.idle-timeout",
					KEEP_ALIVE),
			"undertow", Map.of("server.undertow.threads.worker", MAX_THREADS));

	/**
	 * The property whose value gives the accept backlog instead of the starter's, on the
	 * servers that have one.
	 */
	private static final Map<String, String> BACKLOG_PROPERTIES = Map.of("tomcat", "server.tomcat.accept-count",
			"undertow", "server.undertow.options.socket.BACKLOG");

	private final ThreadModelSettings settings;

	private final ThreadModelExecutors executors;

	private final ConnectionIntake intake;

	private final ObjectProvider<ServerKind> serverKind;

	private final Environment environment;

	ThreadModelStartupReport(ThreadModelSettings settings, ThreadModelExecutors executors, ConnectionIntake intake,
			ObjectProvider<ServerKind> serverKind, Environment environment) {
		this.settings = settings;
		this.executors = executors;
		this.intake = intake;
		this.serverKind = serverKind;
		this.environment = environment;
	}

	@Override
	public void onApplicationEvent(ApplicationStartedEvent event) {
		ServerKind kind = this.serverKind.getIfAvailable();
		String server = (kind != null) ? kind.name() : ServerKind.NONE;
		logger.info(summary(server));
		ineffective(SERVER_THREAD_PROPERTIES.getOrDefault(server, Map.of()),
				"the starter's executor runs " + server + "'s requests");
	}

	/**
	 * The INFO line, for example {@code Thread model virtual (app.threads.model) on
	 * tomcat: adaptive limit 20 to 10000 (heap threshold 80 %), queue-timeout 30s; accept
	 * backlog 4096 (8192 capped by
	 * net.core.somaxconn); application tasks follow the server's model, unbounded}; on
	 * Jetty, after the limits, {@code requests wait at most 28s (the connection idle timeout
	 * 30s, less a margin)}; then each lane, as {@code lane cpu on platform threads,
	 * max-threads 2, ...}.
	 */
	String summary(String server) {
		ThreadModel model = this.settings.model();
		boolean auto = ThreadModelSettings.AUTO_SOURCE.equals(this.settings.modelSource());
		StringBuilder line = new StringBuilder("Thread model ");
		line.append(auto ? "auto, starting on " + model.id() : model.id())
			.append(" (")
			.append(this.settings.modelSource())
			.append(") on ")
			.append(server)
			.append("netty".equals(server) ? " (blocking controller methods)" : "")
			.append(": ");
		ExecutorSettings executor = this.settings.requestExecutor();
		if (auto) {
			line.append("platform ")
				.append(platformLimits(executor))
				.append(", virtual ")
				.append(virtualLimits(executor, this.settings.overload().queueTimeout()));
		}
		else {
			line.append((model == ThreadModel.PLATFORM) ? platformLimits(executor)
					: virtualLimits(executor, this.settings.overload().queueTimeout()));
		}
		Duration idleTimeout = this.intake.idleTimeout();
		if (idleTimeout != null) {
			line.append("; requests wait at most ")
				.append(duration(ConnectionIntake.maxIdleWait(idleTimeout)))
				.append(" (the connection idle timeout ")
				.append(duration(idleTimeout))
				.append(", less a margin)");
		}
		line.append("; ").append(backlog(server)).append("; ").append(tasks());
		this.settings.lanes().forEach((name, lane) -> {
			ExecutorSettings laneExecutor = this.settings.laneExecutor(lane);
			line.append("; lane ").append(name).append(" on ").append(laneExecutor.model().id()).append(" threads, ");
			line.append((laneExecutor.model() == ThreadModel.PLATFORM) ? platformLimits(laneExecutor)
					: virtualLimits(laneExecutor, this.settings.laneOverload(lane).queueTimeout()));
		});
		return line.toString();
	}

	private String platformLimits(ExecutorSettings executor) {
		ExecutorSettings.PlatformPool pool = executor.platform();
		return "max-threads %d, min-threads %d, queue-capacity %s, keep-alive %s".formatted(pool.maxThreads(),
				pool.minThreads(), (pool.queueCapacity() != null) ? pool.queueCapacity() : "unbounded",
				duration(pool.keepAlive()));
	}

	private String virtualLimits(ExecutorSettings executor, Duration timeout) {
		String queueTimeout = "queue-timeout " + duration(timeout);
		return switch (executor.admission()) {
			case FixedAdmission fixed -> "max-concurrency %d, %s".formatted(fixed.maxConcurrency(), queueTimeout);
			case AdaptiveAdmission adaptive -> "adaptive limit %d to %d (heap threshold %.0f %%), %s".formatted(
					adaptive.minLimit(), adaptive.maxLimit(), adaptive.heapThreshold() * 100, queueTimeout);
			case UnlimitedAdmission unlimited -> "max-concurrency unlimited";
		};
	}

	private String backlog(String server) {
		String property = BACKLOG_PROPERTIES.get(server);
		if (property != null && this.environment.containsProperty(property)) {
			return "accept backlog from " + property;
		}
		String line = "accept backlog " + this.intake.acceptBacklog();
		return (this.intake.acceptBacklog() < this.intake.configured())
				? line + " (" + this.intake.configured() + " capped by net.core.somaxconn)" : line;
	}

	private String tasks() {
		if (this.executors.tasks() == null) {
			return "application tasks on the application's own executor";
		}
		String model = this.executors.tasksFollow() ? "application tasks follow the server's model"
				: "application tasks on " + this.executors.tasks().getModel().id()
						+ " threads (app.threads.tasks.model)";
		TaskLimit limit = this.executors.tasks().getTaskLimit();
		if (limit == null) {
			return model + ", unbounded";
		}
		Duration timeout = limit.queueTimeout();
		return model + ", max-concurrency " + limit.maxConcurrency() + ", queue-timeout "
				+ ((timeout != null) ? duration(timeout) : "none");
	}

	private void ineffective(Map<String, String> properties, String why) {
		List<String> set = properties.keySet().stream().filter(this.environment::containsProperty).sorted().toList();
		ExecutorSettings.PlatformPool pool = this.settings.requestExecutor().platform();
		Map<String, Function<ExecutorSettings.PlatformPool, Object>> inForce = Map.of(MAX_THREADS,
				ExecutorSettings.PlatformPool::maxThreads, MIN_THREADS, ExecutorSettings.PlatformPool::minThreads,
				QUEUE_CAPACITY, (p) -> (p.queueCapacity() != null) ? p.queueCapacity() : "unbounded", KEEP_ALIVE,
				(p) -> duration(p.keepAlive()));
		for (String property : set) {
			String instead = properties.get(property);
			logger.warn("%s=%s has no effect: %s; set %s instead (in force: %s)".formatted(property,
					this.environment.getProperty(property), why, instead, inForce.get(instead).apply(pool)));
		}
	}

	private static String duration(Duration duration) {
		if (duration.toMillis() % 1000 == 0) {
			return duration.toSeconds() + "s";
		}
		return duration.toMillis() + "ms";
	}

}
