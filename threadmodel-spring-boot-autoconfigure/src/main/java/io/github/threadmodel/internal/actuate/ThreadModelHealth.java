package io.github.threadmodel.internal.actuate;

import java.util.LinkedHashMap;
import java.util.Map;

import io.github.threadmodel.executor.ExecutorStats;
import io.github.threadmodel.executor.TaskRecorder;
import io.github.threadmodel.executor.ThreadModelExecutor;
import io.github.threadmodel.internal.overload.Shedding;

/**
 * The details of the {@code threadModel} health contributor, the same on both Boot lines
 * (each line's health indicator reports them): the model, the limit, the requests in
 * flight and waiting, and whether the server sheds load. Always {@code UP}: load is no
 * failure, and a health that went down with it would take a busy pod out of service or
 * restart it, which is what shedding is there to prevent.
 */
public final class ThreadModelHealth {

	private final ThreadModelExecutor requests;

	private final Shedding shedding;

	/**
	 * Creates the details' source.
	 * @param requests the request executor
	 * @param shedding whether the starter sheds load
	 */
	public ThreadModelHealth(ThreadModelExecutor requests, Shedding shedding) {
		this.requests = requests;
		this.shedding = shedding;
	}

	/**
	 * The details now.
	 * @return {@code model}, {@code limit} (the platform pool's size or the virtual limit; left
	 * out when there is none), {@code inFlight}, {@code queued} and {@code shedding}
	 */
	public Map<String, Object> details() {
		TaskRecorder recorder = this.requests.recorder();
		ExecutorStats.Admission admission = this.requests.admission();
		Integer maxPoolSize = this.requests.maxPoolSize();
		Integer limit = (maxPoolSize != null) ? maxPoolSize
				: (admission != null) ? admission.limit() : this.requests.maxConcurrency();
		Map<String, Object> details = new LinkedHashMap<>();
		details.put("model", this.requests.getModel().id());
		if (limit != null) {
			details.put("limit", limit);
		}
		details.put("inFlight", recorder.running());
		details.put("queued", recorder.queued());
		details.put("shedding", this.shedding.isShedding());
		return details;
	}

}
