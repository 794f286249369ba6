package io.github.threadmodel.actuate;

import java.util.Iterator;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.threadmodel.testapp.Http;
import io.github.threadmodel.testapp.TestServers;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The endpoint's JSON, pinned: the same field names, in the same order, with the same
 * kinds of value, on both Boot lines (Boot 3.5 writes it with Jackson 2, Boot 4 with
 * Jackson 3). Values that change from run to run stand as their kind. The JDK's
 * scheduler figures need JDK 24+: before, {@code virtualThreadScheduler} is {@code null}.
 */
@SpringBootTest(classes = TestServers.TomcatApp.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "app.threads.model=auto", "app.threads.auto.window=100ms",
				// no pinning site in the shape: on a loaded machine, class loading at warm-up
				// can pin a virtual thread for 20 ms and more
				"app.threads.pinning.threshold=1h", "management.endpoint.threadmodel.access=unrestricted",
				"management.endpoints.web.exposure.include=threadmodel" })
class ThreadModelEndpointJsonTests {

	private static final String GOLDEN = """
			model: string
			modelSource: string
			server: string
			requests: object
			requests.model: string
			requests.submitted: number
			requests.completed: number
			requests.rejected: number
			requests.rejectedTimedOut: number
			requests.rejectedIdleTimeout: number
			requests.bypassed: number
			requests.running: number
			requests.peakRunning: number
			requests.queued: number
			requests.peakQueued: number
			requests.queueWait: object
			requests.queueWait.count: number
			requests.queueWait.averageMs: number
			requests.queueWait.maxMs: number
			requests.carrierWait: object
			requests.carrierWait.count: number
			requests.carrierWait.averageMs: number
			requests.carrierWait.maxMs: number
			requests.poolSize: number
			requests.maxPoolSize: number
			requests.maxConcurrency: null
			requests.executorTasks: object
			requests.executorTasks.submitted: number
			requests.executorTasks.completed: number
			requests.executorTasks.refused: number
			requests.async: object
			requests.async.open: number
			requests.async.peakOpen: number
			requests.async.started: number
			tasks: object
			tasks.model: string
			tasks.submitted: number
			tasks.completed: number
			tasks.rejected: number
			tasks.rejectedTimedOut: number
			tasks.rejectedIdleTimeout: null
			tasks.bypassed: null
			tasks.running: number
			tasks.peakRunning: number
			tasks.queued: number
			tasks.peakQueued: number
			tasks.queueWait: object
			tasks.queueWait.count: number
			tasks.queueWait.averageMs: number
			tasks.queueWait.maxMs: number
			tasks.carrierWait: object
			tasks.carrierWait.count: number
			tasks.carrierWait.averageMs: number
			tasks.carrierWait.maxMs: number
			tasks.poolSize: number
			tasks.maxPoolSize: null
			tasks.maxConcurrency: null
			tasks.executorTasks: object
			tasks.executorTasks.submitted: number
			tasks.executorTasks.completed: number
			tasks.executorTasks.refused: number
			tasks.async: null
			netty: null
			virtualThreadScheduler: object
			virtualThreadScheduler.parallelism: number
			virtualThreadScheduler.poolSize: number
			virtualThreadScheduler.mounted: number
			virtualThreadScheduler.queued: number
			connections: object
			connections.acceptBacklog: number
			connections.somaxconn: number
			startup: object
			startup.contextRefreshedMs: number
			startup.webServerStartedMs: number
			startup.applicationReadyMs: number
			runtime: object
			runtime.javaVersion: string
			runtime.javaVendor: string
			runtime.processors: number
			runtime.flavour: object
			runtime.flavour.name: string
			runtime.flavour.cds: boolean
			runtime.flavour.aotCache: boolean
			runtime.flavour.springAot: boolean
			runtime.flavour.nativeImage: boolean
			switchingEnabled: boolean
			switches: array
			switches[0]: object
			switches[0].at: string
			switches[0].from: string
			switches[0].to: string
			switches[0].requestedBy: string
			switches[0].source: string
			switches[0].handedOver: number
			pinning: object
			pinning.recording: boolean
			pinning.thresholdMs: number
			pinning.count: number
			pinning.totalTimeMs: number
			pinning.sites: array
			pinning.untrackedCount: number
			auto: object
			auto.active: boolean
			auto.pausedBy: string
			auto.choice: string
			auto.reason: string
			auto.figures: object
			auto.figures.model: string
			auto.figures.windowMs: number
			auto.figures.completed: number
			auto.figures.queued: number
			auto.figures.poolExhausted: boolean
			auto.figures.threadWaitMs: number
			auto.figures.cpuShare: number
			auto.figures.schedulingDelayMs: number
			auto.figures.longestSchedulingDelayMs: number
			auto.decisions: array
			admission: null
			lanes: array
			probeLane: object
			probeLane.model: string
			probeLane.paths: array
			probeLane.paths[0]: string
			probeLane.maxThreads: number
			probeLane.poolSize: number
			probeLane.running: number
			probeLane.queued: number
			probeLane.completed: number
			""";

	private static final String SCHEDULER = """
			virtualThreadScheduler: object
			virtualThreadScheduler.parallelism: number
			virtualThreadScheduler.poolSize: number
			virtualThreadScheduler.mounted: number
			virtualThreadScheduler.queued: number
			""";

	@LocalServerPort
	private int port;

	@Test
	void readAfterASwitchHasTheSameShapeOnEveryBootLine() throws Exception {
		Http http = new Http(this.port);
		assertThat(http.postThreadModel(Map.of("model", "platform")).statusCode()).isEqualTo(200);
		ObjectMapper mapper = new ObjectMapper();
		// auto's figures come with its first window
		JsonNode body = await().until(() -> mapper.readTree(http.send("/actuator/threadmodel").body()),
				(read) -> read.at("/auto/figures").isObject());
		assertThat(shape(body, "")).isEqualTo((Runtime.version().feature() >= 24) ? GOLDEN
				: GOLDEN.replace(SCHEDULER, "virtualThreadScheduler: null\n"));
	}

	/**
	 * One line per field, in the order written: its path and its kind of value.
	 */
	private static String shape(JsonNode node, String path) {
		if (node.isObject()) {
			StringBuilder lines = new StringBuilder(path.isEmpty() ? "" : path + ": object\n");
			for (Iterator<Map.Entry<String, JsonNode>> fields = node.fields(); fields.hasNext();) {
				Map.Entry<String, JsonNode> field = fields.next();
				lines.append(shape(field.getValue(), path.isEmpty() ? field.getKey() : path + "." + field.getKey()));
			}
			return lines.toString();
		}
		if (node.isArray()) {
			return path + ": array\n" + (node.isEmpty() ? "" : shape(node.get(0), path + "[0]"));
		}
		return path + ": " + (node.isNull() ? "null" : node.isNumber() ? "number" : node.isBoolean() ? "boolean" : "string")
				+ "\n";
	}

}
