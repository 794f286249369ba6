package io.github.threadmodel;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.threadmodel.executor.ThreadModel;
import io.github.threadmodel.testapp.Http;
import io.github.threadmodel.testapp.LiveThreads;
import io.github.threadmodel.testapp.TestServers;
import io.github.threadmodel.testapp.ThreadController;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Switches the model of a real server back and forth while a steady stream of slow and
 * fast requests runs, on each server.
 */
class LiveSwitchingIntegrationTests {

	private static final int SWITCHES = 20;

	private static final int CLIENTS = 8;

	@ParameterizedTest(name = "{0}")
	@EnumSource(TestServers.class)
	void everyRequestIsAnsweredOnceWhileTheModelSwitches(TestServers server) throws Exception {
		try (ConfigurableApplicationContext context = server.start("app.threads.model=platform",
				"app.threads.platform.max-threads=4", "app.threads.platform.min-threads=2",
				"app.threads.platform.keep-alive=200ms", "management.endpoint.threadmodel.access=unrestricted")) {
			Http http = new Http(context);
			ThreadController controller = context.getBean(ThreadController.class);
			http.get("/thread");
			AtomicBoolean running = new AtomicBoolean(true);
			AtomicInteger ids = new AtomicInteger();
			Queue<String> failures = new ConcurrentLinkedQueue<>();
			Queue<String> sent = new ConcurrentLinkedQueue<>();
			List<Future<?>> clients = new ArrayList<>();
			try (ExecutorService load = Executors.newVirtualThreadPerTaskExecutor()) {
				for (int c = 0; c < CLIENTS; c++) {
					clients.add(load.submit(() -> {
						while (running.get()) {
							String id = String.valueOf(ids.incrementAndGet());
							long sleepMs = (Integer.parseInt(id) % 3 == 0) ? 150 : 0; // some slow, some fast
							sent.add(id);
							HttpResponse<String> response = http.send("/echo?id=" + id + "&sleepMs=" + sleepMs);
							if (response.statusCode() != 200 || !response.body().equals(id)) {
								failures.add(id + " -> " + response.statusCode() + " " + response.body());
							}
						}
					}));
				}
				try {
					ThreadModel model = ThreadModel.PLATFORM;
					for (int i = 0; i < SWITCHES; i++) {
						awaitRequestsServed(controller, CLIENTS); // under the model of the last switch
						model = (model == ThreadModel.PLATFORM) ? ThreadModel.VIRTUAL : ThreadModel.PLATFORM;
						HttpResponse<String> switched = http.postThreadModel("{\"model\":\"" + model.id() + "\"}");
						assertThat(switched.statusCode()).as(switched.body()).isEqualTo(200);
						// a new connection: Tomcat may serve a request that follows the POST on its
						// kept-alive connection in the POST's own task, on the old model's thread
						assertThat(http.getOnNewConnection("/thread")).as("a request after switch %d", i + 1)
							.startsWith("request-" + model.id() + "-")
							.endsWith("virtual=" + (model == ThreadModel.VIRTUAL));
					}
					awaitRequestsServed(controller, 2 * CLIENTS);
				}
				finally {
					// stop the clients even when a switch fails, or closing their executor waits forever
					running.set(false);
				}
				for (Future<?> client : clients) {
					client.get(30, TimeUnit.SECONDS);
				}
			}
			assertThat(failures).isEmpty();
			assertThat(sent).hasSizeGreaterThan(SWITCHES * CLIENTS);
			Map<String, Integer> served = controller.served();
			assertThat(served).hasSize(sent.size());
			assertThat(served.values()).containsOnly(1);
			@SuppressWarnings("unchecked")
			List<Map<String, Object>> switches = (List<Map<String, Object>>) http.threadModel().get("switches");
			assertThat(switches).hasSize(10)
				.allSatisfy((change) -> assertThat(change).containsEntry("requestedBy", "actuator"));
			assertThat(switches.get(0)).containsEntry("from", "virtual").containsEntry("to", "platform");
			// every retired platform pool has ended; the current ones are back to min-threads
			LiveThreads.await("request-platform-", 2, Duration.ofSeconds(15));
			LiveThreads.await("task-platform-", 2, Duration.ofSeconds(15));
		}
	}

	/**
	 * Waits until the clients have been served {@code count} more requests.
	 */
	private static void awaitRequestsServed(ThreadController controller, int count) {
		int served = controller.served().size();
		await().atMost(Duration.ofSeconds(30)).until(() -> controller.served().size() >= served + count);
	}

}
