package io.github.threadmodel.internal.servers;

import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.ByteBuffer;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;

import io.github.threadmodel.internal.overload.ProbeLane;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.ssl.SslConnection;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.internal.HttpConnection;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Callback;

/**
 * Jetty's HTTP/1.1 connections with health probes sent to the {@link ProbeLane}. Jetty
 * parses a request in the task it hands to its executor, so a probe cannot be told from
 * that task. Here a connection, when its next request can be read, reads what has arrived
 * on the selecting thread without blocking (into that thread's buffer, of the connection's
 * input buffer size) and tells a probe by the request line. The request then goes to the
 * lane or to the request executor with those bytes, in a buffer of their size (a request
 * head, a few hundred bytes: what a waiting request holds), and they are handed to the
 * connection's request buffer ({@link HttpConnection#onUpgradeTo}, the way Jetty's protocol
 * detection hands bytes over) when its turn comes, before Jetty parses it. All that has
 * arrived is handed over, not only the request line: Jetty 12.1 parses what it is handed
 * and, when that is not a whole request head, waits for more bytes, which would cost a
 * request a second turn. The rest of a request that arrives later is read where its start
 * was.
 * <p>
 * Written by hand: Jetty has no hook between "bytes to read" and "which executor". Only
 * Jetty's own HTTP/1.1 factory is replaced, never one an application set; connections over
 * TLS keep Jetty's own dispatch.
 */
final class JettyProbeRouting extends HttpConnectionFactory {

	/** One buffer per selecting thread, as large as a connection's: the look happens there. */
	private final ThreadLocal<ByteBuffer> buffers;

	private final Executor requests;

	private final ProbeLane probes;

	/**
	 * The factory that replaces a connector's own, with its settings: those of Jetty 12.0
	 * and 12.1 (the HTTP configuration, the input buffer size, direct buffers), and 12.1's
	 * longest chunk of a chunked body.
	 * @param replaced the connector's HTTP/1.1 factory
	 * @param requests the request executor
	 * @param probes the probes' lane
	 */
	JettyProbeRouting(HttpConnectionFactory replaced, Executor requests, ProbeLane probes) {
		super(replaced.getHttpConfiguration());
		setInputBufferSize(replaced.getInputBufferSize());
		setUseInputDirectByteBuffers(replaced.isUseInputDirectByteBuffers());
		setUseOutputDirectByteBuffers(replaced.isUseOutputDirectByteBuffers());
		ChunkMaxLength.copy(replaced, this);
		this.requests = requests;
		this.probes = probes;
		this.buffers = ThreadLocal.withInitial(() -> BufferUtil.allocate(getInputBufferSize()));
	}

	/**
	 * A connection as Jetty's own factory makes it; over TLS, Jetty's own connection:
	 * reading a request's start there means decrypting, no work for the selecting thread.
	 */
	@Override
	public Connection newConnection(Connector connector, EndPoint endPoint) {
		if (endPoint instanceof SslConnection.SslEndPoint) {
			return super.newConnection(connector, endPoint);
		}
		RoutingConnection connection = new RoutingConnection(getHttpConfiguration(), connector, endPoint);
		connection.setUseInputDirectByteBuffers(isUseInputDirectByteBuffers());
		connection.setUseOutputDirectByteBuffers(isUseOutputDirectByteBuffers());
		ChunkMaxLength.copy(this, connection);
		return configure(connection, connector, endPoint);
	}

	/**
	 * A connection that chooses, for each request, where it is read and run.
	 */
	private final class RoutingConnection extends HttpConnection {

		/** Whether the request being read is a probe: the rest of it is read on the lane too. */
		private volatile boolean probe;

		RoutingConnection(HttpConfiguration configuration, Connector connector, EndPoint endPoint) {
			super(configuration, connector, endPoint);
		}

		/**
		 * Called by Jetty 12.0 whenever the connection waits for bytes of a request: when it
		 * opens, after each request on a kept-alive connection, and when a request's head
		 * is not whole yet.
		 */
		@Override
		public void fillInterested() {
			getEndPoint().fillInterested(new Routing(this, this::onFillInterestedFailed));
		}

		/**
		 * Called by Jetty 12.1 at the same moments, with the callback that reads
		 * ({@code onFillable()}); Jetty 12.0 has no such method.
		 * @param reads the callback that reads the request
		 */
		public void fillInterested(Callback reads) {
			getEndPoint().fillInterested(new Routing(reads::succeeded, reads::failed));
		}

		/** On the selecting thread, once there are bytes to read. */
		private void route(Routing routing) {
			Runnable reads = routing.reads;
			Runnable task = reads;
			if (getParser().isStart()) { // a new request, not the rest of one begun before
				ByteBuffer arrived = readArrived();
				if (arrived != null && !arrived.hasRemaining()) {
					// woken with nothing to read: wait here again, not in an executor's queue,
					// where a probe whose bytes come next would wait behind the load
					getEndPoint().fillInterested(routing);
					return;
				}
				this.probe = arrived != null && JettyProbeRouting.this.probes.isProbe(arrived);
				if (arrived != null) {
					task = () -> {
						onUpgradeTo(arrived);
						reads.run();
					};
				}
			}
			Executor target = this.probe ? JettyProbeRouting.this.probes : JettyProbeRouting.this.requests;
			try {
				target.execute(task);
			}
			catch (RejectedExecutionException ex) {
				getEndPoint().close(ex);
			}
		}

		/**
		 * Reads what has arrived of the next request.
		 * @return the bytes, in a buffer of their size; an empty buffer when none has arrived
		 * yet; {@code null} at the end of the input or when reading fails (the reading thread
		 * then meets either)
		 */
		private ByteBuffer readArrived() {
			ByteBuffer buffer = JettyProbeRouting.this.buffers.get();
			BufferUtil.clear(buffer);
			int filled;
			try {
				filled = getEndPoint().fill(buffer);
			}
			catch (IOException ex) {
				return null;
			}
			if (filled <= 0) {
				return (filled == 0) ? BufferUtil.EMPTY_BUFFER : null;
			}
			return ByteBuffer.allocate(buffer.remaining()).put(buffer).flip();
		}

		/**
		 * The callback of a connection waiting for bytes: it never blocks, so Jetty runs it
		 * on the selecting thread, and it hands the reading to a lane.
		 */
		private final class Routing implements Callback {

			private final Runnable reads;

			private final Consumer<Throwable> failed;

			Routing(Runnable reads, Consumer<Throwable> failed) {
				this.reads = reads;
				this.failed = failed;
			}

			@Override
			public void succeeded() {
				route(this);
			}

			@Override
			public void failed(Throwable failure) {
				this.failed.accept(failure);
			}

			@Override
			public InvocationType getInvocationType() {
				return InvocationType.NON_BLOCKING;
			}

		}

	}

	/**
	 * Jetty 12.1's longest chunk of a chunked request body, a setting of its factory and
	 * connection that Jetty 12.0 does not have: found once, by reflection.
	 */
	private static final class ChunkMaxLength {

		private static final MethodHandle FACTORY_GET = find(HttpConnectionFactory.class, "get", int.class);

		private static final MethodHandle FACTORY_SET = find(HttpConnectionFactory.class, "set", void.class,
				int.class);

		private static final MethodHandle CONNECTION_SET = find(HttpConnection.class, "set", void.class, int.class);

		static void copy(HttpConnectionFactory from, Object to) {
			MethodHandle set = (to instanceof HttpConnection) ? CONNECTION_SET : FACTORY_SET;
			if (FACTORY_GET == null || set == null) {
				return;
			}
			try {
				set.invoke(to, (int) FACTORY_GET.invoke(from));
			}
			catch (Throwable ex) {
				throw new IllegalStateException("Cannot copy Jetty's transferEncodingChunkMaxLength", ex);
			}
		}

		private static MethodHandle find(Class<?> type, String prefix, Class<?> returned, Class<?>... parameters) {
			try {
				return MethodHandles.publicLookup()
					.findVirtual(type, prefix + "TransferEncodingChunkMaxLength",
							MethodType.methodType(returned, parameters));
			}
			catch (NoSuchMethodException | IllegalAccessException ex) {
				return null; // Jetty 12.0
			}
		}

	}

}
