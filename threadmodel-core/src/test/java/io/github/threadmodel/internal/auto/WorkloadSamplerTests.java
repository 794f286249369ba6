package io.github.threadmodel.internal.auto;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.github.threadmodel.executor.ExecutorSettings.UnlimitedAdmission;
import io.github.threadmodel.executor.ExecutorSettings;
import io.github.threadmodel.executor.ThreadModel;
import io.github.threadmodel.executor.ThreadModelExecutor;
import io.github.threadmodel.internal.auto.AutoThreadModelPolicy.WorkloadSample;
import io.github.threadmodel.testapp.ExecutorFixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What {@link WorkloadSampler} reads from real executors.
 */
class WorkloadSamplerTests {

	private static final Duration LIMIT = Duration.ofSeconds(30);

	@RegisterExtension
	final ExecutorFixture fixture = new ExecutorFixture();

	private final ThreadModelExecutor requests = this.fixture
		.use(new ThreadModelExecutor("sampler-test-", platform(2)));

	private final ThreadModelExecutor tasks = this.fixture.use(new ThreadModelExecutor("sampler-task-", platform(1)));

	@Test
	void anExhaustedPoolShowsWaitingTasksAndWhatTheyWaited() throws Exception {
		WorkloadSampler sampler = new WorkloadSampler(this.requests, List.of(this.requests), new SchedulingDelayProbe(),
				2, System.nanoTime());
		for (int i = 0; i < 3; i++) {
			this.requests.execute(this.fixture::awaitRelease);
		}
		await().atMost(LIMIT).until(() -> this.requests.stats().running() == 2);
		WorkloadSample busy = sampler.sample(System.nanoTime());
		assertThat(busy.model()).isEqualTo(ThreadModel.PLATFORM);
		assertThat(busy.poolExhausted()).isTrue();
		assertThat(busy.queued()).isEqualTo(1);
		assertThat(busy.completed()).isZero();
		this.fixture.release();
		await().atMost(LIMIT).until(() -> this.requests.stats().completed() == 3);
		WorkloadSample done = sampler.sample(System.nanoTime());
		assertThat(done.poolExhausted()).isFalse();
		assertThat(done.queued()).isZero();
		assertThat(done.completed()).isEqualTo(3);
		// the third task waited for a thread until the others were released; it started in this window
		assertThat(done.threadWait()).isPositive();
	}

	@Test
	void cpuTimeOfPlatformThreadsCountsAsAShareOfTheProcessors() {
		WorkloadSampler sampler = new WorkloadSampler(this.requests, List.of(this.requests, this.tasks),
				new SchedulingDelayProbe(), 1, System.nanoTime());
		this.tasks.execute(() -> spin(Duration.ofMillis(200)));
		await().atMost(LIMIT).until(() -> this.tasks.stats().completed() == 1);
		WorkloadSample sample = sampler.sample(System.nanoTime());
		// the task executor's work counts too; the request executor did nothing
		assertThat(sample.completed()).isZero();
		assertThat(sample.cpuShare()).isGreaterThan(0).isLessThanOrEqualTo(1);
		assertThat(this.tasks.recorder().platformCpuTime()).isPositive();
	}

	@Test
	void cpuTimeIsNotMeasuredUntilASamplerAsks() {
		this.tasks.execute(() -> spin(Duration.ofMillis(50)));
		await().atMost(LIMIT).until(() -> this.tasks.stats().completed() == 1);
		assertThat(this.tasks.recorder().platformCpuTime()).isZero();
	}

	@Test
	void virtualThreadsReportNoCpuTime() {
		ThreadModelExecutor virtual = new ThreadModelExecutor("sampler-virtual-",
				new ExecutorSettings(ThreadModel.VIRTUAL, platform(1).platform(), UnlimitedAdmission.INSTANCE));
		try (virtual) {
			virtual.recorder().measureCpuTime();
			virtual.execute(() -> spin(Duration.ofMillis(50)));
			await().atMost(LIMIT).until(() -> virtual.stats().completed() == 1);
			assertThat(virtual.recorder().platformCpuTime()).isZero();
		}
	}

	@Test
	void theProbeMeasuresHowLongAVirtualThreadWaitsForACarrier() {
		SchedulingDelayProbe probe = new SchedulingDelayProbe();
		assertThat(probe.drain(System.nanoTime())).isEqualTo(new SchedulingDelayProbe.Delays(Duration.ZERO, Duration.ZERO));
		probe.launch();
		long launchedAt = System.nanoTime();
		// a probe that has not run yet counts with its age so far; one that ran, with its delay
		SchedulingDelayProbe.Delays delays = probe.drain(launchedAt + TimeUnit.SECONDS.toNanos(10));
		assertThat(delays.average()).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(11));
		assertThat(delays.longest()).isEqualTo(delays.average());
	}

	@Test
	void aProbeWaitsWhileCpuBoundVirtualThreadsHoldEveryCarrier() throws Exception {
		int carriers = Integer.getInteger("jdk.virtualThreadScheduler.parallelism",
				Runtime.getRuntime().availableProcessors());
		CountDownLatch spinning = new CountDownLatch(carriers);
		AtomicBoolean hog = new AtomicBoolean(true);
		List<Thread> spinners = new ArrayList<>();
		for (int i = 0; i < carriers; i++) {
			spinners.add(Thread.ofVirtual().start(() -> {
				spinning.countDown();
				while (hog.get()) {
					Thread.onSpinWait();
				}
			}));
		}
		SchedulingDelayProbe probe = new SchedulingDelayProbe();
		try {
			assertThat(spinning.await(30, TimeUnit.SECONDS)).isTrue();
			assertThat(probe.waiting(System.nanoTime())).isZero();
			probe.launch();
			// the probe has not run for 100 ms: it still waits for a carrier
			await().atMost(LIMIT)
				.until(() -> probe.waiting(System.nanoTime()), (waiting) -> waiting.compareTo(Duration.ofMillis(100)) >= 0);
		}
		finally {
			hog.set(false);
		}
		for (Thread spinner : spinners) {
			spinner.join();
		}
		await().atMost(LIMIT).until(() -> probe.waiting(System.nanoTime()).isZero());
		assertThat(probe.drain(System.nanoTime()).longest()).isGreaterThanOrEqualTo(Duration.ofMillis(100));
	}

	private static void spin(Duration duration) {
		long end = System.nanoTime() + duration.toNanos();
		long x = 0;
		while (System.nanoTime() < end) {
			x += System.nanoTime() % 7;
		}
		if (x == 42) {
			System.out.print("");
		}
	}

	private static ExecutorSettings platform(int maxThreads) {
		return new ExecutorSettings(ThreadModel.PLATFORM,
				new ExecutorSettings.PlatformPool(maxThreads, maxThreads, null, Duration.ofSeconds(1)),
				UnlimitedAdmission.INSTANCE);
	}

}
