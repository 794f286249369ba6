package io.github.threadmodel.pinning;

import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import java.util.logging.Level;
import java.util.logging.LogRecord;

import io.github.threadmodel.pinning.CallSite;
import io.github.threadmodel.pinning.PinningStats;
import io.github.threadmodel.pinning.VirtualThreadPinning;
import io.github.threadmodel.testapp.CapturedLog;
import io.github.threadmodel.testapp.FreshClassCopy;
import io.github.threadmodel.testapp.NeedsAClass;
import io.github.threadmodel.testapp.SlowClassInit;
import io.github.threadmodel.testapp.SlowSynchronized;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@link VirtualThreadPinning} and {@link CallSite} fed with real
 * {@code jdk.VirtualThreadPinned} events: virtual threads that run the static
 * initializer of {@link SlowClassInit}, which blocks.
 */
class VirtualThreadPinningTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private static final CallSite CLASS_INIT = new CallSite(SlowClassInit.class.getName(), "<clinit>");

	private static final CallSite SYNCHRONIZED = new CallSite(SlowSynchronized.class.getName(), "run");

	private static List<RecordedEvent> events;

	@BeforeAll
	static void recordTwoPinningsAtTheSameSite() {
		events = pin("pinning-test-", 2, () -> FreshClassCopy.initialize(SlowClassInit.class));
	}

	@Test
	void callSiteIsTheClassInitializerThatBlockedNotTheJdkFramesAboveIt() {
		assertThat(events).allSatisfy((event) -> assertThat(CallSite.of(event.getStackTrace())).isEqualTo(CLASS_INIT));
		assertThat(events.get(0).getStackTrace().getFrames().get(0).getMethod().getType().getName())
			.as("the event's topmost frame").startsWith("java.lang.");
	}

	@Test
	void callSiteOfPinningWhileTheJvmLoadsAClassIsTheCodeThatNeededItNotTheClassLoader() {
		RecordedEvent event = pin("pinning-load-", 1,
				() -> FreshClassCopy.runLoadingSlowly(NeedsAClass.class, NeedsAClass.NeededClass.class,
						SlowClassInit.BLOCK_MS))
			.get(0);
		assertThat(event.getStackTrace().getFrames()).extracting((frame) -> frame.getMethod().getType().getName())
			.as("the frames above the call site")
			.contains(FreshClassCopy.class.getName(), "java.lang.ClassLoader");
		assertThat(CallSite.of(event.getStackTrace())).isEqualTo(new CallSite(NeedsAClass.class.getName(), "run"));
	}

	@Test
	void blockingInsideSynchronizedPinsAtItsCallSiteBeforeJdk24AndNotSince() {
		// the class initializer after it pins on every JDK: once its event is in, an event of
		// the synchronized block would be in too (the stream hands events over in time order)
		List<RecordedEvent> recorded = pin("pinning-sync-", List.of(SlowSynchronized::run,
				() -> FreshClassCopy.initialize(SlowClassInit.class)), (events) -> events.stream()
					.anyMatch((event) -> CLASS_INIT.equals(CallSite.of(event.getStackTrace()))));
		VirtualThreadPinning pinning = new VirtualThreadPinning(Duration.ofMillis(20));
		recorded.forEach(pinning::pinned);
		if (Runtime.version().feature() < 24) {
			assertThat(recorded).extracting((event) -> CallSite.of(event.getStackTrace()))
				.containsExactly(SYNCHRONIZED, CLASS_INIT);
			assertThat(pinning.stats().sites()).extracting(PinningStats.Site::site).contains(SYNCHRONIZED);
		}
		else {
			assertThat(recorded).extracting((event) -> CallSite.of(event.getStackTrace())).containsExactly(CLASS_INIT);
			assertThat(pinning.stats().sites()).extracting(PinningStats.Site::site).doesNotContain(SYNCHRONIZED);
		}
	}

	@Test
	void countsPinningAtOrAboveTheThresholdBySite() {
		VirtualThreadPinning pinning = new VirtualThreadPinning(Duration.ofMillis(20));
		events.forEach(pinning::pinned);
		PinningStats stats = pinning.stats();
		Duration total = events.get(0).getDuration().plus(events.get(1).getDuration());
		assertThat(stats.count()).isEqualTo(2);
		assertThat(stats.totalTime()).isEqualTo(total).isGreaterThanOrEqualTo(Duration.ofMillis(2 * SlowClassInit.PINNED_AT_LEAST_MS));
		PinningStats.Site site = stats.sites().get(0);
		assertThat(site.site()).isEqualTo(CLASS_INIT);
		assertThat(site.count()).isEqualTo(2);
		assertThat(site.totalTime()).isEqualTo(total);
		if (Runtime.version().feature() >= 24) {
			assertThat(site.reason()).contains(SlowClassInit.class.getName() + ".<clinit>");
		}
	}

	@Test
	void namesTheLaneOfThePinnedThreadFromItsName() {
		List<LogRecord> records = CapturedLog.during(VirtualThreadPinning.class, Level.WARNING, () -> {
			VirtualThreadPinning pinning = new VirtualThreadPinning(Duration.ofMillis(20), true,
					(threadName) -> threadName.equals("pinning-test-1") ? "reports" : null);
			events.forEach(pinning::pinned);
			assertThat(pinning.stats().sites()).singleElement()
				.extracting(PinningStats.Site::lanes)
				.isEqualTo(List.of("reports"));
		});
		assertThat(records).singleElement()
			.satisfies((record) -> assertThat(record.getMessage()).contains(" at " + CLASS_INIT + " in lane reports ("));
	}

	@Test
	void dropsPinningUnderTheThreshold() {
		VirtualThreadPinning pinning = new VirtualThreadPinning(Duration.ofSeconds(10));
		events.forEach(pinning::pinned);
		assertThat(pinning.stats().count()).isZero();
		assertThat(pinning.stats().sites()).isEmpty();
	}

	@Test
	void warnsOnceAtASiteInOneShortLineAndTellsTheRestAtDebug() {
		List<LogRecord> records = CapturedLog.during(VirtualThreadPinning.class, Level.FINE, () -> {
			VirtualThreadPinning pinning = new VirtualThreadPinning(Duration.ofMillis(20));
			pinning.pinned(events.get(0));
			pinning.pinned(events.get(1));
		});
		assertThat(records).filteredOn((record) -> record.getLevel() == Level.WARNING)
			.singleElement()
			.satisfies((record) -> assertThat(record.getMessage())
				.startsWith("Virtual thread pinned its carrier thread for ")
				.contains(" ms at " + CLASS_INIT + " (")
				.doesNotContain("\n")
				.hasSizeLessThan(120 + CLASS_INIT.toString().length()));
		assertThat(records).filteredOn((record) -> record.getLevel() == Level.FINE)
			.singleElement()
			.satisfies((record) -> assertThat(record.getMessage())
				.contains("Virtual thread 'pinning-test-1' was pinned to its carrier thread for")
				.contains("block inside a class initializer")
				.contains("\n\tat " + SlowClassInit.class.getName() + ".<clinit>")
				.contains("\n\tat " + FreshClassCopy.class.getName() + "."));
	}

	@Test
	void hintNamesSynchronizedOnlyBeforeJdk24() {
		assertThat(VirtualThreadPinning.hint(21)).contains("class initializer").contains("synchronized");
		assertThat(VirtualThreadPinning.hint(25)).contains("class initializer").doesNotContain("synchronized");
	}

	@Test
	void recordsPinningOnceStartedAndStopsRecordingWhenStopped() {
		VirtualThreadPinning pinning = new VirtualThreadPinning(Duration.ofMillis(20));
		pinning.start();
		try {
			assertThat(pinning.isRunning()).isTrue();
			await().atMost(TIMEOUT).until(pinning::isRecording);
			Thread.ofVirtual().start(() -> FreshClassCopy.initialize(SlowClassInit.class)).join();
			await().atMost(TIMEOUT)
				.untilAsserted(() -> assertThat(pinning.stats().sites()).extracting(PinningStats.Site::site)
					.contains(CLASS_INIT));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
		finally {
			pinning.stop();
		}
		assertThat(pinning.isRunning()).isFalse();
		assertThat(pinning.isRecording()).isFalse();
	}

	@Test
	void waitingForVirtualThreadsRecordsOnlyOnceTheyAreInUse() {
		VirtualThreadPinning pinning = new VirtualThreadPinning(Duration.ofMillis(20), false);
		pinning.start();
		try {
			// with JFR already up in this JVM (the tests above), a recording opens in milliseconds
			await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(2)).until(() -> !pinning.isRecording());
			pinning.virtualThreadsInUse();
			await().atMost(TIMEOUT).until(pinning::isRecording);
			pinning.virtualThreadsInUse();
			assertThat(pinning.isRecording()).isTrue();
		}
		finally {
			pinning.stop();
		}
		assertThat(pinning.isRecording()).isFalse();
	}

	@Test
	void virtualThreadsInUseBeforeStartRecordsOnceStarted() {
		VirtualThreadPinning pinning = new VirtualThreadPinning(Duration.ofMillis(20), false);
		pinning.virtualThreadsInUse();
		assertThat(pinning.isRecording()).isFalse();
		pinning.start();
		try {
			await().atMost(TIMEOUT).until(pinning::isRecording);
		}
		finally {
			pinning.stop();
		}
	}

	/**
	 * Runs {@code pinning} on virtual threads, one after the other, and returns the pinning
	 * events they caused, kept whole ({@code setReuse(false)}).
	 */
	private static List<RecordedEvent> pin(String threadPrefix, int times, Runnable pinning) {
		return pin(threadPrefix, Collections.nCopies(times, pinning), (events) -> events.size() >= times);
	}

	/**
	 * Runs each of {@code tasks} on a virtual thread of its own, one after the other, until
	 * the events recorded for them are {@code complete}, and returns those events in the
	 * order of the tasks.
	 */
	private static List<RecordedEvent> pin(String threadPrefix, List<Runnable> tasks,
			Predicate<List<RecordedEvent>> complete) {
		List<RecordedEvent> recorded = new CopyOnWriteArrayList<>();
		try (RecordingStream stream = new RecordingStream()) {
			stream.enable("jdk.VirtualThreadPinned")
				.withThreshold(Duration.ofMillis(SlowClassInit.PINNED_AT_LEAST_MS))
				.withStackTrace();
			stream.setReuse(false);
			stream.onEvent("jdk.VirtualThreadPinned", (event) -> {
				if (event.getThread() != null && event.getThread().getJavaName().startsWith(threadPrefix)) {
					recorded.add(event);
				}
			});
			stream.startAsync();
			for (int i = 1; i <= tasks.size(); i++) {
				Thread.ofVirtual().name(threadPrefix + i).start(tasks.get(i - 1)).join();
			}
			await().atMost(TIMEOUT).until(() -> complete.test(recorded));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
		return recorded.stream()
			.sorted((a, b) -> a.getThread().getJavaName().compareTo(b.getThread().getJavaName()))
			.toList();
	}

}
