package io.github.threadmodel.testapp;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.Async;
import org.springframework.scheduling.annotation.EnableAsync;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody;

/**
 * Long downloads ({@code StreamingResponseBody}, which Spring MVC runs on the application
 * task executor) that start, send their first bytes and then wait until the test lets them
 * end; and an {@code @Async} method to call meanwhile. Added to a servlet test application
 * with {@code spring.main.sources}.
 */
@Configuration(proxyBeanMethods = false)
@EnableAsync
public class LongDownloads {

	@Bean
	Gate downloadsGate() {
		return new Gate();
	}

	@Bean
	Quick quick() {
		return new Quick();
	}

	/**
	 * Counts the downloads that started, and holds them until it opens.
	 */
	public static class Gate {

		private final AtomicInteger started = new AtomicInteger();

		private final CountDownLatch open = new CountDownLatch(1);

		public int started() {
			return this.started.get();
		}

		public void open() {
			this.open.countDown();
		}

	}

	/**
	 * An {@code @Async} method with nothing to wait for.
	 */
	public static class Quick {

		@Async
		public CompletableFuture<String> thread() {
			return CompletableFuture.completedFuture(Thread.currentThread().getName());
		}

	}

	@RestController
	static class DownloadController {

		private final Gate gate;

		private final Quick quick;

		DownloadController(Gate gate, Quick quick) {
			this.gate = gate;
			this.quick = quick;
		}

		@GetMapping("/download")
		StreamingResponseBody download() {
			return (out) -> {
				this.gate.started.incrementAndGet();
				out.write("started\n".getBytes(StandardCharsets.UTF_8));
				out.flush();
				try {
					this.gate.open.await(60, TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				out.write("done".getBytes(StandardCharsets.UTF_8));
			};
		}

		@GetMapping("/async/thread")
		String asyncThread() throws Exception {
			return this.quick.thread().get(30, TimeUnit.SECONDS);
		}

	}

}
