package io.github.threadmodel.pinning;

import java.time.Duration;
import java.util.List;

/**
 * What {@link VirtualThreadPinning} has seen since the application started.
 *
 * @param threshold pinning shorter than this is not counted
 * @param count pinnings counted
 * @param totalTime time virtual threads spent pinned, summed
 * @param sites the call sites with the most pinned time, most first
 * @param untrackedCount pinnings at call sites beyond the most that are tracked (counted
 * in {@code count} and {@code totalTime}, not listed)
 * @since 0.1.0
 */
public record PinningStats(Duration threshold, long count, Duration totalTime, List<Site> sites,
		long untrackedCount) {

	/**
	 * Pinning at one call site.
	 *
	 * @param site where the virtual thread blocked while pinned
	 * @param reason why the JDK could not unmount it, as the first event at the site said
	 * (JDK 24+), or {@code null}
	 * @param count pinnings at the site
	 * @param totalTime time pinned at the site, summed
	 * @param lanes the lanes whose virtual threads pinned there, by name; empty when only
	 * threads outside every lane did
	 */
	public record Site(CallSite site, String reason, long count, Duration totalTime, List<String> lanes) {

	}

}
