package io.github.threadmodel.internal.servers;

import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.Lock;

import io.github.threadmodel.internal.overload.ProbeLane;
import org.apache.tomcat.util.net.NioChannel;
import org.apache.tomcat.util.net.NioEndpoint;
import org.apache.tomcat.util.net.SecureNioChannel;
import org.apache.tomcat.util.net.SocketEvent;
import org.apache.tomcat.util.net.SocketProcessorBase;
import org.apache.tomcat.util.net.SocketWrapperBase;

/**
 * The executor Tomcat's connector gets: it sends a health probe to the {@link ProbeLane}
 * and every other task to the request executor. Tomcat's poller hands over a
 * {@link SocketProcessorBase} when a connection has bytes to read; for a new request on
 * an NIO connection (no processor attached yet), this reads the start of the request line
 * without blocking, tells a probe by it, and gives the bytes back
 * ({@link SocketWrapperBase#unRead}), so that the processor reads the request as if
 * nothing had happened. The bytes would have been read by that processor anyway, so the
 * look costs a copy of a few dozen bytes and no system call. A connection woken with
 * nothing to read waits for its bytes again on the poller, as the processor would have
 * had it wait once it ran: a probe whose bytes come next must not find its connection
 * queued behind the load.
 * <p>
 * Tomcat offers no accessor for a processor's connection: its protected fields are read
 * through {@link VarHandle}s (one class serves Tomcat 10.1 and 11). A TLS connection is looked at only once its handshake is
 * done (the processor performs it): a probe over TLS on a new connection waits with
 * the other requests.
 */
final class TomcatProbeRouting implements Executor {

	private static final VarHandle SOCKET_WRAPPER;

	private static final VarHandle EVENT;

	/**
	 * {@code SocketWrapperBase.getLock()}, typed as a {@link Lock}: it returns a
	 * {@code ReentrantLock} on Tomcat 11 and a {@code Lock} on Tomcat 10.1, so a call
	 * compiled against one fails on the other.
	 */
	private static final MethodHandle GET_LOCK;

	static {
		try {
			MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(SocketProcessorBase.class,
					MethodHandles.lookup());
			SOCKET_WRAPPER = lookup.findVarHandle(SocketProcessorBase.class, "socketWrapper", SocketWrapperBase.class);
			EVENT = lookup.findVarHandle(SocketProcessorBase.class, "event", SocketEvent.class);
			GET_LOCK = lookup.unreflect(SocketWrapperBase.class.getMethod("getLock"))
				.asType(MethodType.methodType(Lock.class, SocketWrapperBase.class));
		}
		catch (ReflectiveOperationException ex) {
			throw new ExceptionInInitializerError(ex);
		}
	}

	/** One buffer per poller thread: the look happens on the thread that dispatches. */
	private final ThreadLocal<ByteBuffer> buffers;

	private final Executor requests;

	private final ProbeLane probes;

	TomcatProbeRouting(Executor requests, ProbeLane probes) {
		this.requests = requests;
		this.probes = probes;
		this.buffers = ThreadLocal.withInitial(() -> ByteBuffer.allocate(probes.peekBytes()));
	}

	@Override
	public void execute(Runnable task) {
		NioEndpoint.NioSocketWrapper wrapper = newRequestConnection(task);
		switch ((wrapper != null) ? look(wrapper) : Look.OTHER) {
			case PROBE -> this.probes.execute(task);
			// as the processor would once it found nothing, without waiting behind the load to
			// find it: the poller wakes the connection again when its bytes come
			case NOTHING_YET -> wrapper.registerReadInterest();
			case OTHER -> this.requests.execute(task);
		}
	}

	/** The connection of a processor that is to read a new request, or {@code null}. */
	private static NioEndpoint.NioSocketWrapper newRequestConnection(Runnable task) {
		if (task instanceof SocketProcessorBase<?> processor && (SocketEvent) EVENT.get(processor) == SocketEvent.OPEN_READ
				&& (SocketWrapperBase<?>) SOCKET_WRAPPER.get(processor) instanceof NioEndpoint.NioSocketWrapper wrapper
				&& wrapper.getCurrentProcessor() == null && handshakeDone(wrapper.getSocket())) {
			return wrapper;
		}
		return null;
	}

	private Look look(NioEndpoint.NioSocketWrapper wrapper) {
		// the processor takes the same lock to run; a connection busy elsewhere is no new probe
		Lock lock = lockOf(wrapper);
		if (!lock.tryLock()) {
			return Look.OTHER;
		}
		try {
			ByteBuffer start = this.buffers.get().clear();
			if (wrapper.isClosed()) {
				return Look.OTHER;
			}
			int read = wrapper.read(false, start);
			if (read <= 0) {
				return (read == 0) ? Look.NOTHING_YET : Look.OTHER;
			}
			start.flip();
			boolean probe = this.probes.isProbe(start);
			wrapper.unRead(start);
			return probe ? Look.PROBE : Look.OTHER;
		}
		catch (IOException ex) {
			return Look.OTHER; // the processor meets the same failure when it reads
		}
		finally {
			lock.unlock();
		}
	}

	private static Lock lockOf(SocketWrapperBase<?> wrapper) {
		try {
			return (Lock) GET_LOCK.invokeExact(wrapper);
		}
		catch (Throwable ex) {
			throw new IllegalStateException(ex); // a getter: it throws nothing
		}
	}

	private static boolean handshakeDone(NioChannel channel) {
		return !(channel instanceof SecureNioChannel secure) || secure.isHandshakeComplete();
	}

	/** What the start of a connection's bytes says. */
	private enum Look {

		/** A health probe's request line. */
		PROBE,

		/** No byte yet: the poller woke the connection with nothing to read. */
		NOTHING_YET,

		/** Another request, a closed or failed connection, or one that cannot be looked at now. */
		OTHER

	}

}
