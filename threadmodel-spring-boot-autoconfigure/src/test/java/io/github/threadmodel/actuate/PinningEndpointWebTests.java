package io.github.threadmodel.actuate;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import io.github.threadmodel.testapp.Http;
import io.github.threadmodel.testapp.NeedsAClass;
import io.github.threadmodel.testapp.PinningController;
import io.github.threadmodel.testapp.SlowClassInit;
import io.github.threadmodel.testapp.SlowSynchronized;
import io.github.threadmodel.testapp.TestServers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Pinning in a real Tomcat application on virtual threads: a request handler that runs a
 * static initializer which blocks pins its virtual thread; {@code /actuator/threadmodel}
 * shows the pinning and its call site, and the first pinning there is logged as a
 * warning of one short line, with the thread, the reason and the stack at DEBUG; the next
 * ones are not logged. Blocking inside {@code synchronized} shows there, and in
 * Micrometer's meter, on JDK 21 to 23 only. A site names the lanes whose threads pinned
 * there (the class-loading route runs in the lane {@code loading}).
 */
@ExtendWith(OutputCaptureExtension.class)
@SpringBootTest(classes = { TestServers.TomcatApp.class, PinningController.class },
		webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "app.threads.model=virtual", "app.threads.lanes.loading.paths=/pinning/class-loading",
				"app.threads.lanes.loading.model=virtual", "management.endpoints.web.exposure.include=threadmodel,metrics",
				"logging.level.io.github.threadmodel.pinning.VirtualThreadPinning=debug" })
class PinningEndpointWebTests {

	/** The JFR stream delivers events about a second after they happen; a loaded machine is slower. */
	private static final Duration TIMEOUT = Duration.ofSeconds(60);

	private static final String SITE = SlowClassInit.class.getName() + ".<clinit>";

	@LocalServerPort
	private int port;

	private Http http() {
		return new Http(this.port);
	}

	@Test
	void classInitializerThatBlocksShowsAsPinningAtItsCallSiteAndIsLoggedOnce(CapturedOutput output) {
		await().atMost(TIMEOUT).until(() -> Boolean.TRUE.equals(pinning().get("recording")));
		String firstThread = http().get("/pinning/class-init");
		assertThat(firstThread).startsWith("request-virtual-");
		Map<String, Object> site = await().atMost(TIMEOUT).until(this::classInitSite, (found) -> found != null);
		assertThat(site).containsEntry("count", 1).containsEntry("lanes", List.of());
		assertThat(((Number) site.get("totalTimeMs")).doubleValue())
			.isGreaterThanOrEqualTo(SlowClassInit.PINNED_AT_LEAST_MS);
		if (Runtime.version().feature() >= 24) {
			assertThat((String) site.get("reason")).contains(SITE);
		}
		Map<String, Object> pinning = pinning();
		assertThat(((Number) pinning.get("count")).longValue()).isGreaterThanOrEqualTo(1);
		assertThat(((Number) pinning.get("totalTimeMs")).doubleValue())
			.isGreaterThanOrEqualTo(SlowClassInit.PINNED_AT_LEAST_MS);
		assertThat(pinning).containsEntry("thresholdMs", 20.0).containsEntry("untrackedCount", 0);
		// the site is counted just before the warning is logged, on the JFR stream's thread
		await().atMost(TIMEOUT)
			.untilAsserted(() -> assertThat(output).contains(" ms at " + SITE + " (later pinning there is only")
				.contains("Virtual thread '" + firstThread + "' was pinned to its carrier thread for")
				.contains("\tat " + SITE));
		// (every application context in this JVM that detects pinning logs its own first one)
		// the message itself stays one short line, whatever the log pattern puts before it
		// (with tracing on the class path, Spring Boot adds the correlation IDs)
		assertThat(output.getAll().lines().filter((line) -> line.contains(" WARN ") && line.contains(SITE)))
			.isNotEmpty()
			.allSatisfy((line) -> assertThat(line).contains("Virtual thread pinned its carrier thread for ")
				.satisfies((warning) -> assertThat(warning.substring(warning.indexOf("Virtual thread pinned")))
					.hasSizeLessThan(220)));

		String secondThread = http().get("/pinning/class-init");
		assertThat(secondThread).isNotEqualTo(firstThread);
		await().atMost(TIMEOUT).until(this::classInitSite, (found) -> ((Number) found.get("count")).intValue() == 2);
		// Micrometer's timer records the same JFR event, with the same threshold (it counts every
		// test's pinning in this JVM, so at least these two)
		await().atMost(TIMEOUT).until(() -> micrometerPinnedCount() >= 2);
		// only the first pinning at a site is logged, at WARN and at DEBUG: nothing names the second
		assertThat(output).doesNotContain("Virtual thread '" + secondThread + "' was pinned");
	}

	@Test
	void blockingInsideSynchronizedShowsAsPinningAtItsCallSiteBeforeJdk24AndNotSince() {
		await().atMost(TIMEOUT).until(() -> Boolean.TRUE.equals(pinning().get("recording")));
		double pinnedBefore = micrometerPinnedCount();
		assertThat(http().get("/pinning/synchronized")).startsWith("request-virtual-");
		// pins on every JDK, after the synchronized block: once the endpoint shows it, it has
		// seen the block's pinning too, if there was one (the JFR stream hands events over in
		// time order)
		assertThat(http().get("/pinning/class-loading")).startsWith("lane-loading-virtual-");
		Map<String, Object> loadingSite = await().atMost(TIMEOUT)
			.until(() -> site(NeedsAClass.class.getName(), "run"), Objects::nonNull);
		assertThat(loadingSite).containsEntry("lanes", List.of("loading"));
		Map<String, Object> synchronizedSite = site(SlowSynchronized.class.getName(), "run");
		if (Runtime.version().feature() < 24) {
			assertThat(synchronizedSite).isNotNull().containsEntry("count", 1);
			assertThat(((Number) synchronizedSite.get("totalTimeMs")).doubleValue())
				.isGreaterThanOrEqualTo(SlowSynchronized.PINNED_AT_LEAST_MS);
			// Micrometer's timer counted both
			await().atMost(TIMEOUT).until(() -> micrometerPinnedCount() >= pinnedBefore + 2);
		}
		else {
			assertThat(synchronizedSite).isNull();
			await().atMost(TIMEOUT).until(() -> micrometerPinnedCount() >= pinnedBefore + 1);
		}
	}

	@SuppressWarnings("unchecked")
	private double micrometerPinnedCount() {
		Map<String, Object> body = http().json("/actuator/metrics/jvm.threads.virtual.pinned");
		return ((List<Map<String, Object>>) body.get("measurements")).stream()
			.filter((measurement) -> "COUNT".equals(measurement.get("statistic")))
			.mapToDouble((measurement) -> ((Number) measurement.get("value")).doubleValue())
			.sum();
	}

	private Map<String, Object> pinning() {
		Map<String, Object> body = http().threadModel();
		@SuppressWarnings("unchecked")
		Map<String, Object> pinning = (Map<String, Object>) body.get("pinning");
		assertThat(pinning).isNotNull();
		return pinning;
	}

	private Map<String, Object> classInitSite() {
		return site(SlowClassInit.class.getName(), "<clinit>");
	}

	@SuppressWarnings("unchecked")
	private Map<String, Object> site(String className, String methodName) {
		return ((List<Map<String, Object>>) pinning().get("sites")).stream()
			.filter((site) -> className.equals(site.get("className")) && methodName.equals(site.get("methodName")))
			.findFirst()
			.orElse(null);
	}

}
