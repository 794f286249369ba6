package io.github.threadmodel.pinning;

import java.time.Duration;
import java.util.List;

import io.github.threadmodel.pinning.PinningSites.Recorded;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How {@link PinningSites} adds pinning up, per site and overall, in bounded memory.
 */
class PinningSitesTests {

	private static final Duration THRESHOLD = Duration.ofMillis(20);

	private static final CallSite CATALOG = new CallSite("com.example.Catalog", "<clinit>");

	private static final CallSite NATIVE = new CallSite("com.example.NativeCodec", "decode");

	private final PinningSites sites = new PinningSites(3);

	@Test
	void countsEachPinningOverallAndAtItsSite() {
		this.sites.record(CATALOG, "VM call to com.example.Catalog.<clinit> on stack", Duration.ofMillis(150), null);
		this.sites.record(CATALOG, "VM call to com.example.Catalog.<clinit> on stack", Duration.ofMillis(50), null);
		this.sites.record(NATIVE, "Native frame or <clinit> on stack", Duration.ofMillis(30), null);
		PinningStats stats = this.sites.stats(THRESHOLD, 10);
		assertThat(stats.threshold()).isEqualTo(THRESHOLD);
		assertThat(stats.count()).isEqualTo(3);
		assertThat(stats.totalTime()).isEqualTo(Duration.ofMillis(230));
		assertThat(stats.untrackedCount()).isZero();
		assertThat(stats.sites()).containsExactly(
				new PinningStats.Site(CATALOG, "VM call to com.example.Catalog.<clinit> on stack", 2,
						Duration.ofMillis(200), List.of()),
				new PinningStats.Site(NATIVE, "Native frame or <clinit> on stack", 1, Duration.ofMillis(30),
						List.of()));
	}

	@Test
	void tellsTheFirstPinningAtASiteFromLaterOnes() {
		assertThat(this.sites.record(CATALOG, null, Duration.ofMillis(30), null)).isEqualTo(Recorded.NEW_SITE);
		assertThat(this.sites.record(CATALOG, null, Duration.ofMillis(30), null)).isEqualTo(Recorded.KNOWN_SITE);
		assertThat(this.sites.record(NATIVE, null, Duration.ofMillis(30), null)).isEqualTo(Recorded.NEW_SITE);
	}

	@Test
	void namesTheLanesWhoseThreadsPinnedAtASite() {
		this.sites.record(CATALOG, null, Duration.ofMillis(30), "reports");
		this.sites.record(CATALOG, null, Duration.ofMillis(30), null);
		this.sites.record(CATALOG, null, Duration.ofMillis(30), "cpu");
		this.sites.record(CATALOG, null, Duration.ofMillis(30), "reports");
		this.sites.record(NATIVE, null, Duration.ofMillis(20), null);
		assertThat(this.sites.stats(THRESHOLD, 10).sites()).extracting(PinningStats.Site::lanes)
			.containsExactly(List.of("cpu", "reports"), List.of());
	}

	@Test
	void keepsTheReasonOfTheFirstPinningAtASite() {
		this.sites.record(CATALOG, "first", Duration.ofMillis(30), null);
		this.sites.record(CATALOG, "second", Duration.ofMillis(30), null);
		assertThat(this.sites.stats(THRESHOLD, 10).sites()).singleElement()
			.extracting(PinningStats.Site::reason)
			.isEqualTo("first");
	}

	@Test
	void listsTheSitesWithTheMostPinnedTimeFirstThenTheMostPinnings() {
		CallSite often = new CallSite("com.example.Often", "run");
		CallSite seldomButLong = new CallSite("com.example.Long", "run");
		CallSite same = new CallSite("com.example.Same", "run");
		this.sites.record(often, null, Duration.ofMillis(20), null);
		this.sites.record(often, null, Duration.ofMillis(20), null);
		this.sites.record(often, null, Duration.ofMillis(20), null);
		this.sites.record(seldomButLong, null, Duration.ofMillis(500), null);
		this.sites.record(same, null, Duration.ofMillis(60), null);
		assertThat(this.sites.stats(THRESHOLD, 10).sites()).extracting(PinningStats.Site::site)
			.containsExactly(seldomButLong, often, same);
		assertThat(this.sites.stats(THRESHOLD, 2).sites()).extracting(PinningStats.Site::site)
			.containsExactly(seldomButLong, often);
	}

	@Test
	void countsPinningBeyondTheMostSitesWithoutTrackingThem() {
		for (int i = 1; i <= 3; i++) {
			assertThat(this.sites.record(new CallSite("com.example.Site" + i, "run"), null, Duration.ofMillis(20), null))
				.isEqualTo(Recorded.NEW_SITE);
		}
		CallSite fourth = new CallSite("com.example.Site4", "run");
		assertThat(this.sites.record(fourth, null, Duration.ofMillis(40), null)).isEqualTo(Recorded.FIRST_UNTRACKED);
		assertThat(this.sites.record(fourth, null, Duration.ofMillis(40), null)).isEqualTo(Recorded.UNTRACKED);
		assertThat(this.sites.record(new CallSite("com.example.Site5", "run"), null, Duration.ofMillis(40), null))
			.isEqualTo(Recorded.UNTRACKED);
		// a tracked site is still counted at its site
		assertThat(this.sites.record(new CallSite("com.example.Site1", "run"), null, Duration.ofMillis(20), null))
			.isEqualTo(Recorded.KNOWN_SITE);
		PinningStats stats = this.sites.stats(THRESHOLD, 10);
		assertThat(stats.count()).isEqualTo(7);
		assertThat(stats.totalTime()).isEqualTo(Duration.ofMillis(200));
		assertThat(stats.untrackedCount()).isEqualTo(3);
		assertThat(stats.sites()).hasSize(3).extracting(PinningStats.Site::site).doesNotContain(fourth);
	}

}
