package io.github.threadmodel;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import io.github.threadmodel.testapp.ForkedServer;
import io.github.threadmodel.testapp.RawHttp;
import io.github.threadmodel.testapp.TestServers;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The default admission on a pod's heap, with requests that allocate what they keep as they
 * run: a burst of them is admitted no faster than the heap shows it can hold them, so the
 * server neither runs out of heap nor leaves a request unanswered.
 */
class HeavyRequestsIntegrationTests {

	@Test
	void aBurstOfRequestsThatAllocateAsTheyRunIsAnsweredOnA256MbHeap() throws Exception {
		try (ForkedServer forked = ForkedServer.start(TestServers.TOMCAT,
				List.of("-Xmx256m", "-XX:+ExitOnOutOfMemoryError", "-XX:TieredStopAtLevel=1"), "server.port=0",
				"app.threads.model=virtual")) {
			int port = forked.port();
			// one request first: the limit knows how long requests run, and the burst comes
			// after a quiet time, as in a pod that served a little before
			assertThat(RawHttp.closing(port, "/hold?kb=512&ms=1000")).isEqualTo(200);
			ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor();
			List<CompletableFuture<Integer>> burst = new ArrayList<>();
			for (int i = 0; i < 2000; i++) {
				burst.add(CompletableFuture.supplyAsync(() -> RawHttp.closing(port, "/hold?kb=512&ms=1000"), clients));
			}
			// answered: served, or refused 503 once it waited the default queue timeout (30 s),
			// which a slow machine may reach before the heap lets the whole burst run
			assertThat(burst).allSatisfy((request) -> assertThat(request).succeedsWithin(Duration.ofSeconds(50))
				.isIn(200, 503));
			assertThat(burst.stream().filter((request) -> request.join() == 200)).hasSizeGreaterThan(1000);
			clients.close();
			assertThat(forked.isAlive()).isTrue();
		}
	}

}
