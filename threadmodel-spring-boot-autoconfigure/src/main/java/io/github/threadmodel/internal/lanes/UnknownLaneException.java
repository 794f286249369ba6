package io.github.threadmodel.internal.lanes;

import java.util.List;
import java.util.Set;

/**
 * Thrown at startup when a {@code @ThreadLane} annotation names a lane that is not
 * configured.
 */
class UnknownLaneException extends RuntimeException {

	private final String lane;

	private final String handler;

	private final List<String> lanes;

	UnknownLaneException(String lane, String handler, Set<String> lanes) {
		super("@ThreadLane(\"" + lane + "\") on " + handler + " names no lane of app.threads.lanes " + lanes);
		this.lane = lane;
		this.handler = handler;
		this.lanes = List.copyOf(lanes);
	}

	/**
	 * The name the annotation gives.
	 * @return the lane's name
	 */
	public String getLane() {
		return this.lane;
	}

	/**
	 * The annotated handler.
	 * @return the handler, as {@code Controller#method}
	 */
	public String getHandler() {
		return this.handler;
	}

	/**
	 * The lanes that are configured.
	 * @return their names
	 */
	public List<String> getLanes() {
		return this.lanes;
	}

}
