package io.github.threadmodel.pinning;

import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Adds up pinning overall and per call site, in bounded memory: at most
 * {@code maxSites} call sites are tracked; pinning at further sites counts towards the
 * totals and {@code untrackedCount} only.
 */
final class PinningSites {

	private static final Comparator<PinningStats.Site> MOST_PINNED_FIRST = Comparator
		.comparing(PinningStats.Site::totalTime)
		.thenComparingLong(PinningStats.Site::count)
		.reversed()
		.thenComparing((site) -> site.site().toString());

	private final int maxSites;

	private final Map<CallSite, Totals> sites = new HashMap<>();

	private long count;

	private long totalNanos;

	private long untrackedCount;

	PinningSites(int maxSites) {
		this.maxSites = maxSites;
	}

	/**
	 * Counts one pinning.
	 * @param site where it happened
	 * @param reason why, or {@code null}
	 * @param duration how long the virtual thread was pinned
	 * @param lane the lane the virtual thread ran for, or {@code null}
	 * @return how the site stands
	 */
	synchronized Recorded record(CallSite site, String reason, Duration duration, String lane) {
		long nanos = duration.toNanos();
		this.count++;
		this.totalNanos += nanos;
		Totals totals = this.sites.get(site);
		if (totals != null) {
			totals.add(nanos, lane);
			return Recorded.KNOWN_SITE;
		}
		if (this.sites.size() >= this.maxSites) {
			this.untrackedCount++;
			return (this.untrackedCount == 1) ? Recorded.FIRST_UNTRACKED : Recorded.UNTRACKED;
		}
		totals = new Totals(reason);
		totals.add(nanos, lane);
		this.sites.put(site, totals);
		return Recorded.NEW_SITE;
	}

	/**
	 * The totals and the sites with the most pinned time.
	 * @param threshold the threshold the pinning was counted with
	 * @param top how many sites to list
	 * @return the figures
	 */
	synchronized PinningStats stats(Duration threshold, int top) {
		return new PinningStats(threshold, this.count, Duration.ofNanos(this.totalNanos),
				this.sites.entrySet()
					.stream()
					.map((entry) -> entry.getValue().toSite(entry.getKey()))
					.sorted(MOST_PINNED_FIRST)
					.limit(top)
					.toList(),
				this.untrackedCount);
	}

	/**
	 * How a pinning's call site stands after it was counted.
	 */
	enum Recorded {

		/** The first pinning at a tracked site. */
		NEW_SITE,

		/** A site seen before. */
		KNOWN_SITE,

		/** The first pinning at a site beyond the most that are tracked. */
		FIRST_UNTRACKED,

		/** A later pinning at a site that is not tracked. */
		UNTRACKED

	}

	private static final class Totals {

		private final String reason;

		private long count;

		private long nanos;

		/** As many as there are lanes, a handful. */
		private final Set<String> lanes = new TreeSet<>();

		Totals(String reason) {
			this.reason = reason;
		}

		void add(long nanos, String lane) {
			this.count++;
			this.nanos += nanos;
			if (lane != null) {
				this.lanes.add(lane);
			}
		}

		PinningStats.Site toSite(CallSite site) {
			return new PinningStats.Site(site, this.reason, this.count, Duration.ofNanos(this.nanos),
					List.copyOf(this.lanes));
		}

	}

}
