package io.github.threadmodel.sample.web;

import java.util.Map;

import io.github.threadmodel.lanes.ThreadLane;

import org.springframework.context.annotation.Profile;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * A route that pins a carrier on JDK 21, in a lane: {@code /lanes/pinned} does what
 * {@code /pinned} does, on the platform threads of the {@code pinning} lane
 * ({@code app.threads.lanes.pinning.*} in application-lanes.properties), so that its
 * monitor held across a sleep holds a platform thread of its own, not a carrier of the
 * virtual threads. Only with the profile {@code lanes}.
 */
@RestController
@Profile("lanes")
@ThreadLane("pinning")
public class LanedPinningController {

	/** Sleeps {@code ms} milliseconds holding a monitor, on a thread of the {@code pinning} lane. */
	@GetMapping(path = "/lanes/pinned", produces = MediaType.APPLICATION_JSON_VALUE)
	public Map<String, Object> pinned(@RequestParam(defaultValue = "50") long ms) throws InterruptedException {
		return PinnedSleep.sleep(ms);
	}

}
