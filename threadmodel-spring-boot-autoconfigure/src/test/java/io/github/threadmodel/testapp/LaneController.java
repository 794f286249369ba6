package io.github.threadmodel.testapp;

import io.github.threadmodel.lanes.ThreadLane;

import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * Routes in lanes by annotation, for the lane tests only (an annotation naming a lane that
 * is not configured stops startup): add it with
 * {@code spring.main.sources=io.github.threadmodel.testapp.LaneController}. Each answers
 * with the thread that ran it.
 */
@RestController
@ThreadLane("cpu")
@Import(LaneController.OutsideLanes.class)
public class LaneController {

	/** In the class's lane. */
	@GetMapping("/lane/report/{name}")
	public String report(@PathVariable String name) {
		return describe();
	}

	/** In the lane of the method, not the class's. */
	@ThreadLane("io")
	@GetMapping("/lane/io")
	public String io() {
		return describe();
	}

	/** In the class's lane, unless a lane's paths name it. */
	@GetMapping("/lane/moved")
	public String moved() {
		return describe();
	}

	static String describe() {
		Thread thread = Thread.currentThread();
		return thread.getName() + " virtual=" + thread.isVirtual();
	}

	/**
	 * A route more specific than an annotated one, in no lane: its requests stay on the
	 * request executor though their path matches the annotated route's pattern.
	 */
	@RestController
	static class OutsideLanes {

		@GetMapping("/lane/report/summary")
		public String summary() {
			return describe();
		}

	}

}
