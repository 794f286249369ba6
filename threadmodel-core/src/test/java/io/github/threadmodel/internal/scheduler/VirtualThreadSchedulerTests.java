package io.github.threadmodel.internal.scheduler;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.management.JMException;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link VirtualThreadScheduler}, on the JDK that runs them: JDK 24 and later
 * have the scheduler's bean, JDK 21 to 23 do not.
 */
class VirtualThreadSchedulerTests {

	private static final boolean HAS_BEAN = Runtime.version().feature() >= 24;

	@Test
	void readsWhatTheSchedulersBeanSays() throws JMException {
		VirtualThreadScheduler scheduler = VirtualThreadScheduler.read();
		if (!HAS_BEAN) {
			assertThat(scheduler).isNull();
			assertThat(VirtualThreadScheduler.readQueued()).isEqualTo(-1);
			return;
		}
		// the same figure read the other way, through the platform MBean server
		Object parallelism = ManagementFactory.getPlatformMBeanServer()
			.getAttribute(new ObjectName("jdk.management:type=VirtualThreadScheduler"), "Parallelism");
		assertThat(scheduler).isNotNull();
		assertThat(scheduler.parallelism()).isEqualTo(parallelism).isPositive();
		assertThat(scheduler.poolSize()).isNotNegative();
		assertThat(scheduler.mounted()).isNotNegative();
		assertThat(scheduler.queued()).isNotNegative();
		assertThat(VirtualThreadScheduler.readQueued()).isNotNegative();
	}

	@Test
	void countsTheVirtualThreadsWaitingForACarrier() throws InterruptedException {
		if (!HAS_BEAN) {
			assertThat(VirtualThreadScheduler.readQueued()).isEqualTo(-1);
			return;
		}
		int carriers = VirtualThreadScheduler.read().parallelism();
		AtomicBoolean spin = new AtomicBoolean(true);
		CountDownLatch running = new CountDownLatch(carriers);
		List<Thread> threads = new ArrayList<>();
		try {
			// every carrier held by a virtual thread that never parks
			for (int i = 0; i < carriers; i++) {
				threads.add(Thread.ofVirtual().start(() -> {
					running.countDown();
					while (spin.get()) {
						Thread.onSpinWait();
					}
				}));
			}
			assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
			for (int i = 0; i < 3; i++) {
				threads.add(Thread.ofVirtual().start(() -> {
				}));
			}
			await().atMost(Duration.ofSeconds(10)).until(() -> VirtualThreadScheduler.readQueued() >= 3);
			assertThat(VirtualThreadScheduler.read().queued()).isGreaterThanOrEqualTo(3);
		}
		finally {
			spin.set(false);
			for (Thread thread : threads) {
				thread.join();
			}
		}
	}

	/**
	 * In a JVM of its own: whether the platform MBean server exists shows in
	 * {@link MBeanServerFactory#findMBeanServer}, which lists it once made.
	 */
	@Test
	void readingMakesNoPlatformMBeanServer() throws Exception {
		assertThat(runReader("scheduler")).isEqualTo("read " + HAS_BEAN + ", mbean servers 0");
		// the check itself sees a server made
		assertThat(runReader("mbean-server")).endsWith("mbean servers 1");
	}

	private static String runReader(String what) throws IOException, InterruptedException {
		Path java = Path.of(System.getProperty("java.home"), "bin", "java");
		Process process = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
				Reader.class.getName(), what)
			.redirectErrorStream(true)
			.start();
		assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
		return new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
	}

	/** Reads the scheduler, or makes the platform MBean server, and says which servers exist. */
	static final class Reader {

		public static void main(String[] args) {
			boolean read;
			if (args[0].equals("scheduler")) {
				read = VirtualThreadScheduler.read() != null && VirtualThreadScheduler.readQueued() >= 0;
			}
			else {
				read = ManagementFactory.getPlatformMBeanServer() != null;
			}
			System.out.println("read " + read + ", mbean servers " + MBeanServerFactory.findMBeanServer(null).size());
		}

	}

}
