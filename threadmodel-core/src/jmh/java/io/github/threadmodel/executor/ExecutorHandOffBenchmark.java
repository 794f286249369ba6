package io.github.threadmodel.executor;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

import io.github.threadmodel.executor.ExecutorSettings.UnlimitedAdmission;

import org.apache.tomcat.util.threads.TaskQueue;
import org.apache.tomcat.util.threads.TaskThreadFactory;
import org.apache.tomcat.util.threads.ThreadPoolExecutor;
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

/**
 * What one request pays for the hand-off to its thread: a task handed to the executor
 * and waited for, by four submitting threads at once (Tomcat's poller and acceptor, or
 * several Jetty selectors, hand off concurrently). Compares the starter's executor on
 * platform threads (its grow-first queue asks the pool for its size, under the pool's
 * lock, on every hand-off), Tomcat's own pool (the one it replaces on Tomcat), and the
 * starter's executor on virtual threads. Each pool: at most 200 threads, 10 kept.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Threads(4)
public class ExecutorHandOffBenchmark {

	@Param({ "starter-platform", "tomcat", "starter-virtual" })
	public String executor;

	private Executor target;

	private AutoCloseable close;

	@Setup(Level.Trial)
	public void start() {
		switch (this.executor) {
			case "starter-platform" -> starter(ThreadModel.PLATFORM);
			case "starter-virtual" -> starter(ThreadModel.VIRTUAL);
			case "tomcat" -> {
				ThreadPoolExecutor tomcat = new ThreadPoolExecutor(10, 200, 60, TimeUnit.SECONDS, new TaskQueue(),
						new TaskThreadFactory("bench-tomcat-", true, Thread.NORM_PRIORITY));
				((TaskQueue) tomcat.getQueue()).setParent(tomcat);
				tomcat.prestartAllCoreThreads();
				this.target = tomcat;
				this.close = tomcat::shutdown;
			}
			default -> throw new IllegalArgumentException(this.executor);
		}
	}

	private void starter(ThreadModel model) {
		ThreadModelExecutor starter = new ThreadModelExecutor("bench-", new ExecutorSettings(model,
				new ExecutorSettings.PlatformPool(200, 10, null, Duration.ofSeconds(60)), UnlimitedAdmission.INSTANCE));
		this.target = starter;
		this.close = starter;
	}

	@TearDown(Level.Trial)
	public void stop() throws Exception {
		this.close.close();
	}

	@Benchmark
	public Object handOff() throws Exception {
		CompletableFuture<Object> done = new CompletableFuture<>();
		this.target.execute(() -> done.complete(this));
		return done.get();
	}

}
