package io.github.threadmodel.internal.actuate;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ThreadPoolExecutor;

import io.github.threadmodel.executor.ExecutorStats;
import io.github.threadmodel.executor.TaskRecorder;
import io.github.threadmodel.executor.ThreadModelExecutor;
import io.github.threadmodel.internal.lanes.Lane;
import io.github.threadmodel.internal.lanes.Lanes;
import io.github.threadmodel.internal.overload.ProbeLane;
import io.github.threadmodel.internal.overload.Shedding;

/**
 * The details of the {@code threadModel} health contributor, the same on both Boot lines
 * (each line's health indicator reports them): the model, the limit, the requests in
 * flight and waiting, whether the server sheds load, and the same figures for each lane
 * and for the health probes' own lane.
 * Always {@code UP}: load is no failure, and a health that went down with it would take a
 * busy pod out of service or restart it, which is what shedding is there to prevent.
 */
public final class ThreadModelHealth {

	private final ThreadModelExecutor requests;

	private final Shedding shedding;

	private final Lanes lanes;

	private final ProbeLane probeLane;

	/**
	 * Creates the details' source.
	 * @param requests the request executor
	 * @param shedding whether the starter sheds load
	 * @param lanes the lanes
	 * @param probeLane the health probes' lane, or {@code null} when there is none (WebFlux)
	 */
	public ThreadModelHealth(ThreadModelExecutor requests, Shedding shedding, Lanes lanes, ProbeLane probeLane) {
		this.requests = requests;
		this.shedding = shedding;
		this.lanes = lanes;
		this.probeLane = probeLane;
	}

	/**
	 * The details now.
	 * @return {@code model}, {@code limit} (the platform pool's size or the virtual limit; left
	 * out when there is none), {@code inFlight}, {@code queued}, {@code shedding} and, when
	 * there are lanes, {@code lanes}: the same four figures for each lane, by name; and,
	 * on a servlet server, {@code probeLane}: the same four for the health probes' lane
	 */
	public Map<String, Object> details() {
		Map<String, Object> details = figures(this.requests);
		details.put("shedding", this.shedding.isShedding());
		if (!this.lanes.isEmpty()) {
			Map<String, Object> lanes = new LinkedHashMap<>();
			for (Lane lane : this.lanes.all()) {
				lanes.put(lane.name(), figures(lane.executor()));
			}
			details.put("lanes", lanes);
		}
		if (this.probeLane != null) {
			ThreadPoolExecutor threads = this.probeLane.threads();
			details.put("probeLane", figures("platform", threads.getMaximumPoolSize(), threads.getActiveCount(),
					threads.getQueue().size()));
		}
		return details;
	}

	private static Map<String, Object> figures(ThreadModelExecutor executor) {
		TaskRecorder recorder = executor.recorder();
		ExecutorStats.Admission admission = executor.admission();
		Integer maxPoolSize = executor.maxPoolSize();
		Integer limit = (maxPoolSize != null) ? maxPoolSize
				: (admission != null) ? admission.limit() : executor.maxConcurrency();
		return figures(executor.getModel().id(), limit, recorder.running(), recorder.queued());
	}

	private static Map<String, Object> figures(String model, Integer limit, int inFlight, int queued) {
		Map<String, Object> figures = new LinkedHashMap<>();
		figures.put("model", model);
		if (limit != null) {
			figures.put("limit", limit);
		}
		figures.put("inFlight", inFlight);
		figures.put("queued", queued);
		return figures;
	}

}
