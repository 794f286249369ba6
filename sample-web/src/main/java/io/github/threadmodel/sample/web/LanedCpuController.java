package io.github.threadmodel.sample.web;

import java.util.Map;

import io.github.threadmodel.lanes.ThreadLane;
import io.github.threadmodel.sample.support.CpuReport;

import org.springframework.context.annotation.Profile;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * A CPU-bound route in a lane: {@code /lanes/cpu} does what {@code /cpu} does, on the
 * platform threads of the {@code cpu} lane ({@code app.threads.lanes.cpu.*} in
 * application-lanes.properties), whatever the server's model, so that its requests neither
 * hold the carriers of the virtual threads nor take turns of the request limit. Only with
 * the profile {@code lanes}, which configures the lane the annotation names.
 */
@RestController
@Profile("lanes")
@ThreadLane("cpu")
public class LanedCpuController {

	/** Busy-spins a thread of the {@code cpu} lane for {@code ms} milliseconds of wall-clock time. */
	@GetMapping(path = "/lanes/cpu", produces = MediaType.APPLICATION_JSON_VALUE)
	public Map<String, Object> cpu(@RequestParam(defaultValue = "20") long ms) {
		return CpuReport.spin(ms);
	}

}
