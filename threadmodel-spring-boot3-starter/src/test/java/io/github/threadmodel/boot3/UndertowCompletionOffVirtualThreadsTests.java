package io.github.threadmodel.boot3;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import io.undertow.Undertow;
import io.undertow.server.HttpHandler;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where the end of an exchange runs: on the completions' platform thread when a virtual
 * thread completed it on JDK 24 or later, where it is otherwise.
 */
class UndertowCompletionOffVirtualThreadsTests {

	@Test
	void exchangeAVirtualThreadCompletesEndsOnAPlatformThreadFromJdk24() throws Exception {
		try (ExecutorService virtualThreads = Executors.newVirtualThreadPerTaskExecutor()) {
			Thread ended = endOfAnExchangeRunOn(virtualThreads);
			if (Runtime.version().feature() >= 24) {
				assertThat(ended.isVirtual()).isFalse();
				assertThat(ended.getName()).isEqualTo("undertow-exchange-completion");
			}
			else {
				assertThat(ended.isVirtual()).isTrue(); // it keeps its carrier while it waits for a lock
			}
		}
	}

	@Test
	void exchangeAPlatformThreadCompletesEndsInPlace() throws Exception {
		ExecutorService platformThreads = Executors.newSingleThreadExecutor((task) -> new Thread(task, "request-1"));
		try {
			assertThat(endOfAnExchangeRunOn(platformThreads).getName()).isEqualTo("request-1");
		}
		finally {
			platformThreads.shutdownNow();
		}
	}

	/**
	 * Serves one request on the given threads, the starter's wrapper inside a handler whose
	 * completion listener, as Spring Boot's graceful shutdown's and the connection's own,
	 * runs after the wrapper's; answers the thread that listener ran on.
	 */
	private Thread endOfAnExchangeRunOn(ExecutorService requests) throws Exception {
		CompletableFuture<Thread> ended = new CompletableFuture<>();
		HttpHandler served = new UndertowCompletionOffVirtualThreads()
			.wrap((exchange) -> exchange.dispatch(requests, () -> exchange.getResponseSender().send("ok")));
		HttpHandler outer = (exchange) -> {
			exchange.addExchangeCompleteListener((completed, next) -> {
				ended.complete(Thread.currentThread());
				next.proceed();
			});
			served.handleRequest(exchange);
		};
		Undertow server = Undertow.builder().addHttpListener(0, "127.0.0.1").setHandler(outer).build();
		server.start();
		try {
			int port = ((InetSocketAddress) server.getListenerInfo().get(0).getAddress()).getPort();
			HttpClient client = HttpClient.newHttpClient();
			for (int request = 0; request < 3; request++) { // kept alive: each ends before the next is read
				HttpResponse<String> response = client.send(
						HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/")).build(),
						HttpResponse.BodyHandlers.ofString());
				assertThat(response.statusCode()).isEqualTo(200);
				assertThat(response.body()).isEqualTo("ok");
			}
			return ended.get(10, TimeUnit.SECONDS);
		}
		finally {
			server.stop();
		}
	}

}
