package io.github.threadmodel.pinning;

import java.time.Duration;
import java.util.function.Function;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingStream;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.context.SmartLifecycle;

/**
 * Counts virtual-thread pinning by call site, from the JDK Flight Recorder's
 * {@code jdk.VirtualThreadPinned} event, and logs a warning the first time each call site
 * pins: one short line, the site and the duration; the thread, the JDK's reason, what
 * pins on this JDK and the event's stack follow at DEBUG.
 * <p>
 * Micrometer's {@code VirtualThreadMetrics} (meter {@code jvm.threads.virtual.pinned},
 * bound by Spring Boot) records the same event but keeps only its duration, and its
 * recording is private; where the pinning happened needs the event's stack trace, so
 * this class runs its own {@link RecordingStream}, with stack traces. Its default
 * threshold is Micrometer's (and JFR's), 20 ms, so that both count the same events. JFR
 * hands every recording in a JVM the events of the lowest threshold any of them asked
 * for: events under this class's threshold are dropped here, and a threshold under 20 ms
 * makes Micrometer's timer count the shorter pinnings too.
 * <p>
 * The stream is opened on a thread of its own when the application context starts: when
 * nothing else has started JFR yet, opening the first recording takes most of a second
 * (docs/results/2026-11-22-jfr-first-recording.md), which would otherwise add to startup.
 * Pinning before the stream is open is not seen.
 * <p>
 * A monitor created to wait for virtual threads opens its stream only once
 * {@link #virtualThreadsInUse()} is called (and the context has started): JFR with stack
 * traces costs startup time and some tens of megabytes of native memory, for nothing
 * while no virtual thread runs.
 * @since 0.1.0
 */
public class VirtualThreadPinning implements SmartLifecycle, AutoCloseable {

	private static final String PINNED_EVENT = "jdk.VirtualThreadPinned";

	/** Call sites tracked one by one; pinning elsewhere is only counted. */
	static final int MAX_SITES = 100;

	/** Call sites listed by {@link #stats()}. */
	static final int TOP_SITES = 10;

	private static final Log logger = LogFactory.getLog(VirtualThreadPinning.class);

	private final Duration threshold;

	private final PinningSites sites = new PinningSites(MAX_SITES);

	private final Function<String, String> laneOfThread;

	private volatile RecordingStream stream;

	private boolean running;

	private boolean virtualThreadsInUse;

	/**
	 * Creates the monitor; it records once started.
	 * @param threshold pinning shorter than this is not counted
	 */
	public VirtualThreadPinning(Duration threshold) {
		this(threshold, true);
	}

	/**
	 * Creates the monitor.
	 * @param threshold pinning shorter than this is not counted
	 * @param virtualThreadsInUse whether to record once started; otherwise from the first
	 * call of {@link #virtualThreadsInUse()}
	 */
	public VirtualThreadPinning(Duration threshold, boolean virtualThreadsInUse) {
		this(threshold, virtualThreadsInUse, (threadName) -> null);
	}

	/**
	 * Creates the monitor, which says for each call site the lanes whose virtual threads
	 * pinned there.
	 * @param threshold pinning shorter than this is not counted
	 * @param virtualThreadsInUse whether to record once started; otherwise from the first
	 * call of {@link #virtualThreadsInUse()}
	 * @param laneOfThread the lane a virtual thread runs for, from its name, or
	 * {@code null} for none
	 */
	public VirtualThreadPinning(Duration threshold, boolean virtualThreadsInUse,
			Function<String, String> laneOfThread) {
		this.threshold = threshold;
		this.virtualThreadsInUse = virtualThreadsInUse;
		this.laneOfThread = laneOfThread;
	}

	@Override
	public synchronized void start() {
		this.running = true;
		if (this.virtualThreadsInUse) {
			openInBackground();
		}
	}

	/**
	 * Records from now on (once the context has started), and until it stops: called when
	 * work moves to virtual threads. Calls after the first do nothing.
	 */
	public synchronized void virtualThreadsInUse() {
		if (!this.virtualThreadsInUse) {
			this.virtualThreadsInUse = true;
			if (this.running) {
				openInBackground();
			}
		}
	}

	private void openInBackground() {
		Thread.ofPlatform().name("threadmodel-pinning-start").daemon().start(this::open);
	}

	private synchronized void open() {
		if (!this.running || this.stream != null) {
			return;
		}
		RecordingStream stream = null;
		try {
			stream = new RecordingStream();
			stream.enable(PINNED_EVENT).withThreshold(this.threshold).withStackTrace();
			// how much of the recording JFR keeps on disk, as Micrometer's binder does
			stream.setMaxAge(Duration.ofSeconds(5));
			stream.setMaxSize(10 * 1024 * 1024);
			stream.onEvent(PINNED_EVENT, this::pinned);
			stream.startAsync();
			this.stream = stream;
		}
		catch (RuntimeException ex) {
			if (stream != null) {
				stream.close();
			}
			logger.warn("Virtual-thread pinning is not detected: JDK Flight Recorder could not start (" + ex + ")");
		}
	}

	@Override
	public synchronized void stop() {
		this.running = false;
		RecordingStream stream = this.stream;
		if (stream != null) {
			stream.close();
			this.stream = null;
		}
	}

	/**
	 * Stops recording; also called when the context is destroyed without being stopped
	 * (a failed startup).
	 */
	@Override
	public void close() {
		stop();
	}

	@Override
	public synchronized boolean isRunning() {
		return this.running;
	}

	/**
	 * Whether the JFR recording is open: {@code false} until it has started (about a
	 * second after startup, or after {@link #virtualThreadsInUse()}), when JFR could not
	 * start, and after the application stops.
	 * @return whether pinning is being recorded
	 */
	public boolean isRecording() {
		return this.stream != null;
	}

	/**
	 * What was counted so far.
	 * @return the totals and the call sites with the most pinned time
	 */
	public PinningStats stats() {
		return this.sites.stats(this.threshold, TOP_SITES);
	}

	void pinned(RecordedEvent event) {
		Duration duration = event.getDuration();
		if (duration.compareTo(this.threshold) < 0) {
			return;
		}
		CallSite site = CallSite.of(event.getStackTrace());
		String reason = field(event, "pinnedReason");
		String lane = laneOf(event.getThread());
		switch (this.sites.record(site, reason, duration, lane)) {
			case NEW_SITE -> {
				logger.warn("Virtual thread pinned its carrier thread for %d ms at %s%s (later pinning there is only "
					.formatted(event.getDuration().toMillis(), site, (lane != null) ? " in lane " + lane : "")
						+ "counted: /actuator/threadmodel)");
				if (logger.isDebugEnabled()) {
					logger.debug(describe(event, site, reason));
				}
			}
			case FIRST_UNTRACKED -> logger.warn(("Virtual threads pinned at more than %d call sites; pinning at "
					+ "further call sites is counted without a warning").formatted(MAX_SITES));
			default -> {
			}
		}
	}

	/**
	 * The whole story of a first pinning at a site, for DEBUG: the thread, the JDK's
	 * reason, what pins on this JDK, and the event's stack, topmost frame first.
	 */
	static String describe(RecordedEvent event, CallSite site, String reason) {
		String thread = threadName(event.getThread());
		String operation = field(event, "blockingOperation");
		String why = (reason != null) ? " (" + reason + ((operation != null) ? ", in " + operation : "") + ")" : "";
		StringBuilder text = new StringBuilder("Virtual thread%s was pinned to its carrier thread for %d ms at %s%s. %s"
			.formatted(thread, event.getDuration().toMillis(), site, why, hint(Runtime.version().feature())));
		RecordedStackTrace stackTrace = event.getStackTrace();
		if (stackTrace != null) {
			for (RecordedFrame frame : stackTrace.getFrames()) {
				text.append("\n\tat ").append(frame.getMethod().getType().getName()).append('.')
					.append(frame.getMethod().getName());
				if (frame.getLineNumber() > 0) {
					text.append(':').append(frame.getLineNumber());
				}
			}
			if (stackTrace.isTruncated()) {
				text.append("\n\t...");
			}
		}
		return text.toString();
	}

	/**
	 * What pins on the running JDK (JEP 491 took {@code synchronized} off the list in JDK
	 * 24).
	 */
	static String hint(int javaFeatureVersion) {
		String hint = "While pinned, a virtual thread that blocks keeps its carrier thread from every other virtual "
				+ "thread. Virtual threads pin when they block inside a class initializer (static initializer), "
				+ "while the JVM loads or initializes a class for them (class loading contended by the first "
				+ "requests after startup does this), and with a native method or foreign function on their stack.";
		return (javaFeatureVersion >= 24) ? hint : hint + " Before JDK 24 they also pin when they block inside "
				+ "synchronized or in Object.wait(): a java.util.concurrent lock instead of synchronized avoids it.";
	}

	private String laneOf(RecordedThread thread) {
		String name = (thread != null) ? thread.getJavaName() : null;
		return (name != null) ? this.laneOfThread.apply(name) : null;
	}

	private static String threadName(RecordedThread thread) {
		if (thread == null) {
			return "";
		}
		String name = thread.getJavaName();
		return (name != null && !name.isEmpty()) ? " '" + name + "'" : " #" + thread.getJavaThreadId();
	}

	private static String field(RecordedEvent event, String name) {
		// pinnedReason and blockingOperation came with JDK 24
		return event.hasField(name) ? event.getString(name) : null;
	}

}
