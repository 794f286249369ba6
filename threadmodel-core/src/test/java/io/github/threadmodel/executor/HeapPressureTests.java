package io.github.threadmodel.executor;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link HeapPressure} on this JVM's own garbage collector.
 */
class HeapPressureTests {

	@Test
	void reportsTheShareOfTheHeapUsedAfterEachCollection() throws Exception {
		BlockingQueue<Double> shares = new LinkedBlockingQueue<>();
		try (HeapPressure pressure = HeapPressure.start(shares::add)) {
			assertThat(pressure).as("this JVM reports its collections").isNotNull();
			System.gc();
			Double share = shares.poll(10, TimeUnit.SECONDS);
			assertThat(share).isNotNull().isGreaterThan(0).isLessThanOrEqualTo(1);
		}
	}

	@Test
	void reportsNothingOnceClosed() throws Exception {
		BlockingQueue<Double> shares = new LinkedBlockingQueue<>();
		HeapPressure.start(shares::add).close();
		System.gc();
		assertThat(shares.poll(500, TimeUnit.MILLISECONDS)).isNull();
	}

}
