package io.github.threadmodel.boot3;

import java.lang.reflect.Field;

import io.undertow.Undertow;
import io.undertow.server.DefaultByteBufferPool;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.boot.web.embedded.undertow.UndertowBuilderCustomizer;
import org.springframework.util.ReflectionUtils;

/**
 * Gives Undertow a buffer pool for request work on virtual threads: one shared queue of
 * free buffers, nothing kept per thread.
 * <p>
 * Undertow's default pool ({@link DefaultByteBufferPool} with a maximum pool size of -1
 * and 4 buffers cached per thread) has no shared queue: a freed buffer goes into the
 * freeing thread's cache or is released, and a thread's cache goes back only when a GC
 * finalizes it after the thread has died. A virtual thread serves one request and dies,
 * so with that pool nearly every request takes new direct buffers (16 KB each by default)
 * that stay until GCs free them; with this one, requests reuse the queue's buffers. On
 * platform threads, whose caches are used again, Undertow's pool is as good or better, so
 * this one is used only for virtual threads (the measurements:
 * docs/results/2026-11-26-undertow-buffer-pool-history.md).
 * <p>
 * The pool gets the buffer size and kind the builder already has (Undertow's defaults for
 * the heap, or {@code server.undertow.buffer-size} and {@code direct-buffers}); the
 * builder has no getters for them, so they are read from its fields, as Spring Boot's
 * {@code UndertowWebServer} reads Undertow's. A pool the application set itself stays.
 */
final class UndertowBufferPool implements UndertowBuilderCustomizer {

	private static final String[] FIELDS = { "bufferSize", "directBuffers", "byteBufferPool" };

	/** The free buffers the queue keeps (4 MB at 16 KB); those freed beyond it are released. */
	private static final int QUEUED_BUFFERS = 256;

	private static final Log logger = LogFactory.getLog(UndertowBufferPool.class);

	@Override
	public void customize(Undertow.Builder builder) {
		Field bufferSize = field(FIELDS[0]);
		Field directBuffers = field(FIELDS[1]);
		Field byteBufferPool = field(FIELDS[2]);
		if (bufferSize == null || directBuffers == null || byteBufferPool == null) {
			logger.warn("Undertow's buffer pool is left as it is: this Undertow's builder does not have the fields "
					+ String.join(", ", FIELDS) + " of Undertow 2.3");
			return;
		}
		if (ReflectionUtils.getField(byteBufferPool, builder) == null) {
			builder.setByteBufferPool(new DefaultByteBufferPool((boolean) ReflectionUtils.getField(directBuffers, builder),
					(int) ReflectionUtils.getField(bufferSize, builder), QUEUED_BUFFERS, 0));
		}
	}

	private static Field field(String name) {
		Field field = ReflectionUtils.findField(Undertow.Builder.class, name);
		if (field != null) {
			ReflectionUtils.makeAccessible(field);
		}
		return field;
	}

	/**
	 * Lets a native image read the builder's fields.
	 */
	static class Hints implements RuntimeHintsRegistrar {

		@Override
		public void registerHints(RuntimeHints hints, ClassLoader classLoader) {
			hints.reflection().registerType(Undertow.Builder.class, (type) -> {
				for (String field : FIELDS) {
					type.withField(field);
				}
			});
		}

	}

}
