package io.github.threadmodel.internal.lanes;

import java.util.Collection;

/**
 * The literal starts of the lanes' path patterns, to tell without parsing a request's path
 * that it matches none of them: most requests of an application with lanes are in none,
 * and parsing a path for the patterns costs an allocation per request. Each start is the
 * pattern's text before its first wildcard or variable, cut at its last {@code /} (so that
 * {@code /owners/**} gives {@code /owners}, which it matches too).
 */
final class LiteralPrefixes {

	/** Every path may match. */
	static final LiteralPrefixes ANY = new LiteralPrefixes(null);

	/** The starts, or {@code null} when any path may match. */
	private final String[] prefixes;

	private LiteralPrefixes(String[] prefixes) {
		this.prefixes = prefixes;
	}

	/**
	 * The starts of some path patterns.
	 * @param patterns the patterns' text
	 * @return their starts
	 */
	static LiteralPrefixes of(Collection<String> patterns) {
		return new LiteralPrefixes(patterns.stream().map(LiteralPrefixes::prefix).distinct().toArray(String[]::new));
	}

	static String prefix(String pattern) {
		int end = pattern.length();
		for (int i = 0; i < pattern.length(); i++) {
			char c = pattern.charAt(i);
			if (c == '*' || c == '?' || c == '{') {
				end = i;
				break;
			}
		}
		return pattern.substring(0, Math.max(0, pattern.lastIndexOf('/', end - 1)));
	}

	/**
	 * Whether a request's path may match one of the patterns.
	 * @param requestUri the request URI as the client sent it
	 * @param contextPath the servlet context path
	 * @return {@code false} only when it matches none
	 */
	boolean mayMatch(String requestUri, String contextPath) {
		// percent-encoded characters and matrix variables make the path as sent differ from
		// the decoded one the patterns match: those are parsed
		if (this.prefixes == null || requestUri.indexOf('%') >= 0 || requestUri.indexOf(';') >= 0
				|| !requestUri.startsWith(contextPath)) {
			return true;
		}
		for (String prefix : this.prefixes) {
			if (requestUri.startsWith(prefix, contextPath.length())) {
				return true;
			}
		}
		return false;
	}

}
