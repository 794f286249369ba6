package io.github.threadmodel.internal.overload;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Tells a probe from the start of its HTTP/1.1 request line, as read from the connection:
 * {@code GET} or {@code HEAD}, a space, then one of the probe paths exactly as
 * {@link ProbePaths#matches} takes it (after the context path, as written, no decoding),
 * ended by a space or a query. Compared byte by byte, without allocating: a server adapter
 * asks it for every request it dispatches.
 */
final class ProbeRequestLine {

	private static final byte[][] METHODS = { bytes("GET "), bytes("HEAD ") };

	/** The request targets that name a probe: the context path and a probe path. */
	private final List<byte[]> targets;

	private final int maxLength;

	ProbeRequestLine(ProbePaths paths, String contextPath) {
		this.targets = paths.paths().stream().map((path) -> bytes(contextPath + path)).toList();
		int longestTarget = this.targets.stream().mapToInt((target) -> target.length).max().orElse(0);
		this.maxLength = METHODS[1].length + longestTarget + 1;
	}

	/**
	 * The most bytes {@link #matches} needs to see.
	 * @return the longest method, target and the byte after it
	 */
	int maxLength() {
		return this.maxLength;
	}

	/**
	 * Whether the bytes start with a probe's request line.
	 * @param start the bytes from the buffer's position to its limit; left unchanged
	 * @return whether they do; {@code false} when they stop before the target's end
	 */
	boolean matches(ByteBuffer start) {
		for (byte[] method : METHODS) {
			if (startsWith(start, 0, method)) {
				return matchesTarget(start, method.length);
			}
		}
		return false;
	}

	private boolean matchesTarget(ByteBuffer start, int offset) {
		for (byte[] target : this.targets) {
			int end = offset + target.length;
			if (end < start.remaining() && startsWith(start, offset, target)) {
				byte next = start.get(start.position() + end);
				if (next == ' ' || next == '?') {
					return true;
				}
			}
		}
		return false;
	}

	private static boolean startsWith(ByteBuffer buffer, int offset, byte[] expected) {
		if (buffer.remaining() < offset + expected.length) {
			return false;
		}
		int base = buffer.position() + offset;
		for (int i = 0; i < expected.length; i++) {
			if (buffer.get(base + i) != expected[i]) {
				return false;
			}
		}
		return true;
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.US_ASCII);
	}

}
