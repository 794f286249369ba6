package io.github.threadmodel.internal.scheduler;

import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * One reading of the virtual threads waiting for a carrier, as the adaptive limit takes it
 * when it decides to grow: {@link VirtualThreadScheduler#readQueued()} (the scheduler's
 * bean, its getter called directly) against the same attribute read through the platform
 * MBean server by name, as the starter read it before. JDK 24 or later; before, both
 * answer "unknown".
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class SchedulerReadingBenchmark {

	private MBeanServer server;

	@Setup
	public void start() {
		this.server = ManagementFactory.getPlatformMBeanServer();
	}

	@Benchmark
	public long bean() {
		return VirtualThreadScheduler.readQueued();
	}

	@Benchmark
	public long mbeanServer() {
		try {
			ObjectName name = new ObjectName("jdk.management:type=VirtualThreadScheduler");
			return this.server.isRegistered(name)
					? ((Number) this.server.getAttribute(name, "QueuedVirtualThreadCount")).longValue() : -1;
		}
		catch (JMException ex) {
			return -1;
		}
	}

}
