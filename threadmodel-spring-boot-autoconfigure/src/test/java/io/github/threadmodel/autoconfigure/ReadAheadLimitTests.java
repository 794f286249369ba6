package io.github.threadmodel.autoconfigure;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How many servlet requests are read ahead of their turn at most: one for every 4 MB of
 * the maximum heap, at least 16.
 */
class ReadAheadLimitTests {

	private static final long MB = 1024 * 1024;

	@Test
	void oneFor4MbOfTheHeap() {
		assertThat(ThreadModelSettings.readAheadLimit(128 * MB)).isEqualTo(32);
		assertThat(ThreadModelSettings.readAheadLimit(256 * MB)).isEqualTo(64);
		assertThat(ThreadModelSettings.readAheadLimit(6 * 1024 * MB)).isEqualTo(1536);
	}

	@Test
	void atLeast16AndNoOverflow() {
		assertThat(ThreadModelSettings.readAheadLimit(32 * MB)).isEqualTo(16);
		assertThat(ThreadModelSettings.readAheadLimit(Long.MAX_VALUE)).isEqualTo(Integer.MAX_VALUE);
	}

}
