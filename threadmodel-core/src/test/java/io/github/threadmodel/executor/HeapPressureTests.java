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
	void reportsTheShareOfTheHeapUsedAfterEachCollectionAndWhetherItWasFull() throws Exception {
		BlockingQueue<Double> shares = new LinkedBlockingQueue<>();
		BlockingQueue<Boolean> full = new LinkedBlockingQueue<>();
		try (HeapPressure pressure = HeapPressure.start((share, isFull) -> {
			shares.add(share);
			full.add(isFull);
		})) {
			assertThat(pressure).as("this JVM reports its collections").isNotNull();
			System.gc();
			Double share = shares.poll(10, TimeUnit.SECONDS);
			assertThat(share).isNotNull().isGreaterThan(0).isLessThanOrEqualTo(1);
			// System.gc() is a full collection on the collectors the JVM picks by default
			assertThat(full.poll(10, TimeUnit.SECONDS)).isTrue();
		}
	}

	@Test
	void reportsNothingOnceClosed() throws Exception {
		BlockingQueue<Double> shares = new LinkedBlockingQueue<>();
		HeapPressure.start((share, full) -> shares.add(share)).close();
		System.gc();
		assertThat(shares.poll(500, TimeUnit.MILLISECONDS)).isNull();
	}

}
