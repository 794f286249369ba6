package io.github.threadmodel.internal.lanes;

import java.util.HashMap;
import java.util.Map;

import io.github.threadmodel.executor.ThreadModelExecutor;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which lane a thread runs for, from its name.
 */
class LaneExecutorsTests {

	@Test
	void aThreadBelongsToTheLaneWhoseNameStartsItsOwnTheLongestThatFits() {
		// only the names matter here
		Map<String, ThreadModelExecutor> byName = new HashMap<>();
		byName.put("a", null);
		byName.put("a-b", null);
		LaneExecutors lanes = new LaneExecutors(byName);
		assertThat(lanes.laneOfThread(LaneExecutors.threadNamePrefix("a") + "virtual-3")).isEqualTo("a");
		assertThat(lanes.laneOfThread("lane-a-b-platform-1")).isEqualTo("a-b");
		assertThat(lanes.laneOfThread("request-virtual-7")).isNull();
		assertThat(lanes.laneOfThread("lane-c-virtual-1")).isNull();
		assertThat(LaneExecutors.none().laneOfThread("lane-a-virtual-3")).isNull();
		assertThat(lanes.byName()).containsOnlyKeys("a", "a-b");
	}

}
