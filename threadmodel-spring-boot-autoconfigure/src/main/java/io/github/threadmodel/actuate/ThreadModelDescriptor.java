package io.github.threadmodel.actuate;

import java.util.List;

import io.github.threadmodel.executor.ExecutorStats;

/**
 * The body of {@code GET /actuator/threadmodel}.
 *
 * @param model the model of the web server's request handling
 * @param modelSource what chose it: at startup the property ({@code app.threads.model},
 * {@code spring.threads.virtual.enabled}, {@code app.threads.model=auto}) or
 * {@code default}; once a switch changed the model, who made the last such switch
 * ({@code endpoint}, {@code configuration}; {@code app.threads.model=auto} for auto's)
 * @param server the embedded web server
 * @param requests the HTTP requests and the request executor's figures
 * @param tasks the application task executor's figures, or {@code null} when the
 * application has its own task executor
 * @param netty on Reactor Netty, what runs where; otherwise {@code null}
 * @param virtualThreadScheduler the JDK's virtual-thread scheduler (JDK 24+), or {@code null}
 * @param connections how the server takes in connections
 * @param startup milliseconds from JVM start to each startup step
 * @param runtime the Java runtime and build flavour
 * @param switchingEnabled whether the model may be switched while the application runs
 * @param switches the last switches of the server's model, newest first
 * @param pinning virtual-thread pinning by call site, or {@code null} when its detection
 * is off ({@code app.threads.pinning.enabled=false}, or no JDK Flight Recorder)
 * @param auto what {@code app.threads.model=auto} is doing, or {@code null} without it
 * @param admission how many requests may run at once on virtual threads, and the limit now
 * (adaptive, fixed or unlimited), or {@code null} while requests run on platform threads
 * @param lanes the lanes ({@code app.threads.lanes.*}), by name; empty without lanes
 * @param probeLane the health probes' own lane on a servlet server, or {@code null} on
 * WebFlux (where a probe runs on the event loop and waits behind no limit)
 * @since 0.1.0
 */
public record ThreadModelDescriptor(String model, String modelSource, String server, ExecutorDescriptor requests,
		ExecutorDescriptor tasks, NettyDescriptor netty, SchedulerDescriptor virtualThreadScheduler,
		ConnectionsDescriptor connections, StartupDescriptor startup, RuntimeDescriptor runtime,
		boolean switchingEnabled, List<SwitchDescriptor> switches, PinningDescriptor pinning, AutoDescriptor auto,
		ExecutorStats.Admission admission, List<LaneDescriptor> lanes, ProbeLaneDescriptor probeLane) {

	/**
	 * A lane: the routes whose requests run on an executor of their own.
	 *
	 * @param name its name, as in {@code app.threads.lanes.<name>}
	 * @param model the thread model of its requests
	 * @param paths its path patterns ({@code app.threads.lanes.<name>.paths})
	 * @param handlers the Spring MVC handler methods annotated with it, as
	 * {@code Controller#method}
	 * @param executor its executor's figures: {@code submitted} counts the lane's requests,
	 * {@code rejected} the ones answered 503 by its limits
	 * @param admission how many of its requests may run at once on virtual threads, or
	 * {@code null} while they run on platform threads
	 * @param switches the last switches of the lane, newest first
	 */
	public record LaneDescriptor(String name, String model, List<String> paths, List<String> handlers,
			ExecutorDescriptor executor, ExecutorStats.Admission admission, List<SwitchDescriptor> switches) {

	}

	/**
	 * The health probes' own lane: platform threads of the starter's that run the requests
	 * a servlet server's adapter recognises as probes from their request line, outside every
	 * limit. It is not switched and no other request runs on it.
	 *
	 * @param model its thread model, always {@code platform}
	 * @param paths the probe paths it takes (Spring Boot's health groups and
	 * {@code app.threads.probes.paths}), relative to the servlet context path
	 * @param maxThreads its threads' limit
	 * @param poolSize its threads alive now (they end after a minute idle)
	 * @param running probes running now
	 * @param queued probes waiting for one of its threads
	 * @param completed probes it has run
	 */
	public record ProbeLaneDescriptor(String model, List<String> paths, int maxThreads, int poolSize, int running,
			int queued, long completed) {

	}

	/**
	 * What {@code app.threads.model=auto} is doing.
	 *
	 * @param active whether it takes decisions; a switch by hand pauses it until
	 * {@code POST {"model":"auto"}}
	 * @param pausedBy who switched by hand and paused it, or {@code null}
	 * @param choice the model it runs on now
	 * @param reason the reason of its last decision, to switch or to stay, with the figures
	 * @param figures the figures of the last window, or {@code null} before the first
	 * @param decisions the last switches it made, newest first
	 */
	public record AutoDescriptor(boolean active, String pausedBy, String choice, String reason,
			FiguresDescriptor figures, List<AutoDecisionDescriptor> decisions) {

	}

	/**
	 * A switch auto made.
	 *
	 * @param at when, as an ISO-8601 instant
	 * @param from the model before
	 * @param to the model after
	 * @param reason why, with the figures
	 * @param figures the figures of the window that completed the decision
	 */
	public record AutoDecisionDescriptor(String at, String from, String to, String reason,
			FiguresDescriptor figures) {

	}

	/**
	 * The figures of one sampling window.
	 *
	 * @param model the model in force
	 * @param windowMs how long the window lasted
	 * @param completed request executor tasks that finished in it
	 * @param queued tasks waiting behind the limit at its end
	 * @param poolExhausted whether at its end a platform pool had every thread busy and
	 * tasks waiting
	 * @param threadWaitMs how long requests waited for a thread, on average
	 * @param cpuShare CPU time of the requests on platform threads as a share (0 to 1) of
	 * every processor's time; 0 on virtual threads, which do not report it
	 * @param schedulingDelayMs how long a new virtual thread waited for a carrier, on average
	 * @param longestSchedulingDelayMs the longest of those waits
	 */
	public record FiguresDescriptor(String model, long windowMs, long completed, int queued, boolean poolExhausted,
			double threadWaitMs, double cpuShare, double schedulingDelayMs, double longestSchedulingDelayMs) {

	}

	/**
	 * A switch of the thread model.
	 *
	 * @param at when, as an ISO-8601 instant
	 * @param from the model before
	 * @param to the model after
	 * @param requestedBy who or what asked for it
	 * @param source where the switch came from: {@code endpoint}, {@code configuration},
	 * {@code auto}, or {@code application} (the application's own code)
	 * @param handedOver requests that waited for a thread of the old model and moved to
	 * the new one
	 */
	public record SwitchDescriptor(String at, String from, String to, String requestedBy, String source,
			int handedOver) {

	}

	/**
	 * What an executor is doing and has done: on {@code requests}, the HTTP requests and
	 * the request executor; on {@code tasks}, the application task executor.
	 *
	 * @param model its thread model
	 * @param submitted on {@code requests}, the HTTP requests received (each request once,
	 * kept-alive connection or not); on {@code tasks}, the tasks received
	 * @param completed the requests (tasks) finished; on {@code requests} the 503 answers
	 * are among them
	 * @param rejected on {@code requests}, the 503 answers written to requests refused under
	 * overload; on {@code tasks}, the tasks refused with an exception
	 * @param rejectedTimedOut the part of {@code rejected} that waited longer than the
	 * queue timeout (the rest found the queue full)
	 * @param rejectedIdleTimeout on {@code requests}, the part of {@code rejected} that
	 * waited as long as the server keeps an idle connection, less a margin (on Jetty);
	 * {@code null} on {@code tasks}
	 * @param bypassed on {@code requests}, the health probes (and other paths of
	 * {@code app.threads.probes.paths}) that ran at once, outside the limits, where they
	 * would otherwise have waited for a turn or been refused; {@code null} on {@code tasks}
	 * @param running tasks running on a thread of the executor now
	 * @param peakRunning the most tasks seen running at once within the limits
	 * @param queued tasks waiting behind the limit now: every platform thread busy, or every
	 * permit of the virtual concurrency limit taken (the queue depth)
	 * @param peakQueued the highest queue depth seen
	 * @param queueWait the tasks that waited behind the limit, and how long
	 * @param carrierWait the tasks that got a virtual thread of their own, and how long it
	 * waited for a carrier thread (not a queue: the CPU was short)
	 * @param poolSize platform threads alive, or {@code null} on virtual threads
	 * @param maxPoolSize the platform pool's limit, or {@code null} on virtual threads
	 * @param maxConcurrency the virtual concurrency limit, or {@code null} when there is none
	 * @param executorTasks what the executor itself received, finished and refused
	 * @param async on {@code requests} of a servlet server, the requests in asynchronous
	 * processing, which are neither running nor queued; otherwise {@code null}
	 */
	public record ExecutorDescriptor(String model, long submitted, long completed, long rejected,
			long rejectedTimedOut, Long rejectedIdleTimeout, Long bypassed, int running, int peakRunning, int queued,
			int peakQueued, WaitDescriptor queueWait, WaitDescriptor carrierWait, Integer poolSize, Integer maxPoolSize, Integer maxConcurrency,
			ExecutorTasksDescriptor executorTasks, AsyncRequestsDescriptor async) {

	}

	/**
	 * Servlet requests in asynchronous processing ({@code Callable}, {@code DeferredResult},
	 * {@code StreamingResponseBody}, server-sent events): from the end of their first
	 * dispatch until they complete. They hold no request thread meanwhile.
	 *
	 * @param open requests open now
	 * @param peakOpen the most seen open at once
	 * @param started requests that went asynchronous since startup
	 */
	public record AsyncRequestsDescriptor(int open, int peakOpen, long started) {

	}

	/**
	 * Waits of one kind since startup.
	 *
	 * @param count tasks that waited
	 * @param averageMs their average wait
	 * @param maxMs the longest wait
	 */
	public record WaitDescriptor(long count, double averageMs, double maxMs) {

	}

	/**
	 * What an executor received, finished and refused, task by task. On the request
	 * executor a task is not a request: one task can serve several requests of a kept-alive
	 * connection (Tomcat), and a server can hand it work that is no request (Jetty reading
	 * the end of a connection).
	 *
	 * @param submitted tasks received
	 * @param completed tasks finished
	 * @param refused tasks beyond the limits (run refused, or refused with an exception)
	 */
	public record ExecutorTasksDescriptor(long submitted, long completed, long refused) {

	}

	/**
	 * What runs on Reactor Netty's event loops and what on the request executor.
	 *
	 * @param eventLoop work that stays on the event loops
	 * @param executor work handed to the request executor
	 */
	public record NettyDescriptor(String eventLoop, String executor) {

		/** Spring WebFlux on Reactor Netty. */
		public static final NettyDescriptor WEBFLUX = new NettyDescriptor(
				"network I/O and controller methods returning a reactive type (Mono, Flux, ...)",
				"controller methods returning any other type (WebFlux blocking execution)");

	}

	/**
	 * How the server takes in connections.
	 *
	 * @param acceptBacklog the accept backlog the starter gives the server unless the
	 * server's own property is set
	 * @param somaxconn the OS cap on accept backlogs, or {@code null} when unknown
	 */
	public record ConnectionsDescriptor(int acceptBacklog, Integer somaxconn) {

	}

	/**
	 * The Java runtime.
	 *
	 * @param javaVersion {@code java.version}
	 * @param javaVendor {@code java.vendor}
	 * @param processors processors available to the JVM
	 * @param flavour how the application was built and started
	 */
	public record RuntimeDescriptor(String javaVersion, String javaVendor, int processors, FlavourDescriptor flavour) {

	}

	/**
	 * How the application was built and started.
	 *
	 * @param name the build flavour: {@code jvm}, {@code cds}, {@code aot}, {@code cds-aot},
	 * {@code aotcache}, {@code aotcache-aot} or {@code native}
	 * @param cds whether a class data sharing archive was mapped
	 * @param aotCache whether an AOT cache (JDK 24+) was used
	 * @param springAot whether Spring AOT's generated initialization ran
	 * @param nativeImage whether it runs as a GraalVM native image
	 */
	public record FlavourDescriptor(String name, boolean cds, boolean aotCache, boolean springAot,
			boolean nativeImage) {

	}

	/**
	 * The JDK's virtual-thread scheduler (JDK 24+).
	 *
	 * @param parallelism carrier threads the scheduler aims to keep busy
	 * @param poolSize carrier threads that exist
	 * @param mounted virtual threads running on a carrier now
	 * @param queued virtual threads waiting for a carrier
	 */
	public record SchedulerDescriptor(int parallelism, int poolSize, int mounted, long queued) {

	}

	/**
	 * Milliseconds from JVM start to each startup step; a step not reached yet is
	 * {@code null}.
	 *
	 * @param contextRefreshedMs the application context was refreshed
	 * @param webServerStartedMs the web server was listening
	 * @param applicationReadyMs the application was ready to serve
	 */
	public record StartupDescriptor(Long contextRefreshedMs, Long webServerStartedMs, Long applicationReadyMs) {

	}

	/**
	 * Virtual-thread pinning since startup.
	 *
	 * @param recording whether the JFR recording is open ({@code false} for about a second
	 * after startup, or when JFR could not start)
	 * @param thresholdMs shortest pinning counted
	 * @param count pinnings counted
	 * @param totalTimeMs time virtual threads spent pinned, summed
	 * @param sites the call sites with the most pinned time, most first
	 * @param untrackedCount pinnings at call sites beyond the 100 tracked ones
	 */
	public record PinningDescriptor(boolean recording, double thresholdMs, long count, double totalTimeMs,
			List<PinnedSiteDescriptor> sites, long untrackedCount) {

	}

	/**
	 * Pinning at one call site.
	 *
	 * @param className the class whose method blocked while pinned
	 * @param methodName the method, {@code <clinit>} for a class initializer
	 * @param count pinnings at the site
	 * @param totalTimeMs time pinned at the site, summed
	 * @param reason why the JDK could not unmount the virtual thread (JDK 24+), or
	 * {@code null}
	 * @param lanes the lanes whose virtual threads pinned there; empty when only threads
	 * outside every lane did
	 */
	public record PinnedSiteDescriptor(String className, String methodName, long count, double totalTimeMs,
			String reason, List<String> lanes) {

	}

}
