package io.github.threadmodel.boot3;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import io.github.threadmodel.testapp.Http;
import io.github.threadmodel.testapp.RawHttp;
import io.github.threadmodel.testapp.TestServers;
import io.undertow.Undertow;
import io.undertow.connector.ByteBufferPool;
import io.undertow.server.DefaultByteBufferPool;
import org.junit.jupiter.api.Test;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.util.ReflectionUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Undertow's buffer pool for virtual threads: what it is built from, and that requests
 * served on virtual threads reuse the direct buffers of earlier ones.
 */
class UndertowBufferPoolTests {

	@Test
	void poolHasTheBuildersBufferSizeAndKind() throws Exception {
		Undertow.Builder builder = Undertow.builder().setBufferSize(4096).setDirectBuffers(false);
		new UndertowBufferPool().customize(builder);
		assertThat(servedPool(builder)).isEqualTo("4096 direct=false");
	}

	@Test
	void poolTheApplicationSetStays() throws Exception {
		Undertow.Builder builder = Undertow.builder().setByteBufferPool(new DefaultByteBufferPool(true, 2048));
		new UndertowBufferPool().customize(builder);
		assertThat(servedPool(builder)).isEqualTo("2048 direct=true");
	}

	@Test
	void onVirtualThreadsRequestsReuseTheDirectBuffersOfEarlierOnes() {
		try (ConfigurableApplicationContext context = TestServers.UNDERTOW.start("app.threads.model=virtual")) {
			Http http = new Http(context);
			http.get("/thread");
			System.gc(); // the baseline without what earlier tests' servers left for a GC to free
			long before = directBuffers();
			// over a plain socket, which takes no direct buffer per request itself
			assertThat(RawHttp.keptAlive(http.port(), "/thread", 1000)).hasSize(1000).containsOnly(200);
			// with Undertow's own pool, or with no queue of free buffers, these requests take
			// about two new buffers each, which stay until GCs free them
			assertThat(directBuffers() - before).isLessThan(200);
		}
	}

	@Test
	void nativeImageMayReadTheBuildersFields() {
		RuntimeHints hints = new RuntimeHints();
		new UndertowBufferPool.Hints().registerHints(hints, getClass().getClassLoader());
		for (String name : new String[] { "bufferSize", "directBuffers", "byteBufferPool" }) {
			assertThat(RuntimeHintsPredicates.reflection()
				.onField(ReflectionUtils.findField(Undertow.Builder.class, name))).accepts(hints);
		}
	}

	/**
	 * Starts Undertow from the builder and asks it, over HTTP, which pool its connection
	 * uses.
	 */
	private static String servedPool(Undertow.Builder builder) throws Exception {
		Undertow undertow = builder.addHttpListener(0, "localhost").setHandler((exchange) -> {
			ByteBufferPool pool = exchange.getConnection().getByteBufferPool();
			exchange.getResponseSender().send(pool.getBufferSize() + " direct=" + pool.isDirect());
		}).build();
		undertow.start();
		try (HttpClient client = HttpClient.newHttpClient()) {
			int port = ((InetSocketAddress) undertow.getListenerInfo().get(0).getAddress()).getPort();
			HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/")).build();
			return client.send(request, HttpResponse.BodyHandlers.ofString()).body();
		}
		finally {
			undertow.stop();
		}
	}

	private static long directBuffers() {
		return ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)
			.stream()
			.filter((pool) -> pool.getName().equals("direct"))
			.mapToLong(BufferPoolMXBean::getCount)
			.sum();
	}

}
