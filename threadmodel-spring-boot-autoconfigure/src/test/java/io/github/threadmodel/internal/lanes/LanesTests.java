package io.github.threadmodel.internal.lanes;

import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.mock.web.MockHttpServletRequest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which lane a request's path puts it in: the lane of the most specific pattern that
 * matches, whatever the order the lanes come in; none for a path no pattern matches. And
 * which lane a thread runs for, from its name.
 */
class LanesTests {

	private final Lane reports = new Lane("reports", null, List.of("/reports/**"));

	private final Lane monthly = new Lane("monthly", null, List.of("/reports/monthly", "/exports/{id}"));

	@Test
	void theMostSpecificPatternWinsWhateverTheOrderOfTheLanes() {
		for (ServletLanes lanes : List.of(new ServletLanes(new Lanes(List.of(this.reports, this.monthly))),
				new ServletLanes(new Lanes(List.of(this.monthly, this.reports))))) {
			assertThat(lanes.laneOf(request("", "/reports/monthly"))).isSameAs(this.monthly);
			assertThat(lanes.laneOf(request("", "/reports/daily"))).isSameAs(this.reports);
			assertThat(lanes.laneOf(request("", "/reports"))).isSameAs(this.reports);
			assertThat(lanes.laneOf(request("", "/exports/7"))).isSameAs(this.monthly);
			assertThat(lanes.laneOf(request("", "/ping"))).isNull();
		}
	}

	@Test
	void lanesAreListedByName() {
		assertThat(new Lanes(List.of(this.reports, this.monthly)).names()).containsExactly("monthly", "reports");
	}

	@Test
	void aThreadBelongsToTheLaneWhoseNameStartsItsOwnTheLongestThatFits() {
		// only the names matter here
		Lanes lanes = new Lanes(List.of(new Lane("a", null, List.of()), new Lane("a-b", null, List.of())));
		assertThat(lanes.laneOfThread(Lanes.threadNamePrefix("a") + "virtual-3")).isEqualTo("a");
		assertThat(lanes.laneOfThread("lane-a-b-platform-1")).isEqualTo("a-b");
		assertThat(lanes.laneOfThread("request-virtual-7")).isNull();
		assertThat(lanes.laneOfThread("lane-c-virtual-1")).isNull();
		assertThat(Lanes.none().laneOfThread("lane-a-virtual-3")).isNull();
		assertThat(lanes.names()).containsExactly("a", "a-b");
	}

	@Test
	void pathsAreMatchedAfterTheContextPathAndDecoded() {
		ServletLanes lanes = new ServletLanes(new Lanes(List.of(this.reports)));
		assertThat(lanes.laneOf(request("/app", "/app/reports/x"))).isSameAs(this.reports);
		assertThat(lanes.laneOf(request("/app", "/app/ping"))).isNull();
		assertThat(lanes.laneOf(request("", "/rep%6Frts/x"))).isSameAs(this.reports);
	}

	private static MockHttpServletRequest request(String contextPath, String uri) {
		MockHttpServletRequest request = new MockHttpServletRequest("GET", uri);
		request.setContextPath(contextPath);
		return request;
	}

}
