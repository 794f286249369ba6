package io.github.threadmodel.internal.handoff;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import io.github.threadmodel.executor.ExecutorSettings;
import io.github.threadmodel.executor.ExecutorSettings.UnlimitedAdmission;
import io.github.threadmodel.executor.Refusal;
import io.github.threadmodel.executor.ThreadModel;
import io.github.threadmodel.executor.ThreadModelExecutor;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.infra.Blackhole;

/**
 * What a request in a lane pays for it: the rest of the request handed to the lane's
 * executor while the server's thread waits ({@link RequestHandOff#runInTurn}, as the
 * starter's servlet filter does), against the same work run on the server's thread (no
 * lane). Four server threads at once (JMH's threads, platform threads, as a server's pool
 * on the platform model); the lane has more threads than that, so that what is measured
 * is the hand-off, not a queue. The request's work is a fixed amount of computation
 * ({@link Blackhole#consumeCPU}, 1000 tokens, about 2 µs).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Threads(4)
public class LaneHandOffBenchmark {

	private static final long WORK_TOKENS = 1000;

	@Param({ "none", "platform", "virtual" })
	public String lane;

	private ThreadModelExecutor executor;

	@Setup(Level.Trial)
	public void start() {
		if (!this.lane.equals("none")) {
			this.executor = new ThreadModelExecutor("lane-bench-",
					new ExecutorSettings(ThreadModel.valueOf(this.lane.toUpperCase()),
							new ExecutorSettings.PlatformPool(8, 8, null, Duration.ofSeconds(60)),
							UnlimitedAdmission.INSTANCE));
		}
	}

	@TearDown(Level.Trial)
	public void stop() {
		if (this.executor != null) {
			this.executor.close();
		}
	}

	@Benchmark
	public Refusal request() throws InterruptedException {
		if (this.executor == null) {
			Blackhole.consumeCPU(WORK_TOKENS);
			return null;
		}
		return RequestHandOff.runInTurn(this.executor, () -> Blackhole.consumeCPU(WORK_TOKENS),
				UnaryOperator.identity());
	}

}
