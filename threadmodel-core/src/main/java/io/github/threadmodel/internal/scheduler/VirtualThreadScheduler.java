package io.github.threadmodel.internal.scheduler;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.management.ManagementFactory;
import java.lang.management.PlatformManagedObject;

/**
 * The JDK's virtual-thread scheduler, read from {@code jdk.management.VirtualThreadSchedulerMXBean}
 * (JDK 24+). Looked up by name because the project compiles for Java 21, which does not
 * have that interface.
 * <p>
 * The bean is taken with {@link ManagementFactory#getPlatformMXBean(Class)} and its getters
 * are called directly, not through the platform MBean server: the adaptive limit reads the
 * queue under its growth lock, possibly on a server's poller thread, where the server's
 * first use would register every platform MBean (in an application that had not made the
 * server yet) and each later read would parse an object name and go through the server's
 * introspection.
 *
 * @param parallelism carrier threads the scheduler aims to keep busy
 * @param poolSize carrier threads that exist
 * @param mounted virtual threads running on a carrier now
 * @param queued virtual threads waiting for a carrier
 */
public record VirtualThreadScheduler(int parallelism, int poolSize, int mounted, long queued) {

	/**
	 * Reads the scheduler's figures.
	 * @return the figures, or {@code null} before JDK 24 or where the bean is not available
	 */
	public static VirtualThreadScheduler read() {
		Bean bean = Bean.INSTANCE;
		if (bean == null) {
			return null;
		}
		try {
			return new VirtualThreadScheduler((int) bean.parallelism.invoke(), (int) bean.poolSize.invoke(),
					(int) bean.mounted.invoke(), (long) bean.queued.invoke());
		}
		catch (Throwable ex) {
			return null;
		}
	}

	/**
	 * Reads only the virtual threads waiting for a carrier: the one figure the adaptive
	 * limit needs when it decides to grow.
	 * @return the count, or {@code -1} before JDK 24 or where the bean is not available
	 */
	public static long readQueued() {
		Bean bean = Bean.INSTANCE;
		if (bean == null) {
			return -1;
		}
		try {
			return (long) bean.queued.invoke();
		}
		catch (Throwable ex) {
			return -1;
		}
	}

	/**
	 * The bean's getters, bound to it, looked up once: on first use, so that an application
	 * that never reads the scheduler never loads the management classes for it.
	 */
	private record Bean(MethodHandle parallelism, MethodHandle poolSize, MethodHandle mounted, MethodHandle queued) {

		private static final String INTERFACE = "jdk.management.VirtualThreadSchedulerMXBean";

		static final Bean INSTANCE = find();

		private static Bean find() {
			try {
				Class<? extends PlatformManagedObject> type = Class.forName(INTERFACE)
					.asSubclass(PlatformManagedObject.class);
				PlatformManagedObject bean = ManagementFactory.getPlatformMXBean(type);
				if (bean == null) {
					return null;
				}
				MethodHandles.Lookup lookup = MethodHandles.publicLookup();
				return new Bean(getter(lookup, type, bean, "getParallelism", int.class),
						getter(lookup, type, bean, "getPoolSize", int.class),
						getter(lookup, type, bean, "getMountedVirtualThreadCount", int.class),
						getter(lookup, type, bean, "getQueuedVirtualThreadCount", long.class));
			}
			catch (ReflectiveOperationException | RuntimeException | LinkageError ex) {
				return null; // before JDK 24, or a runtime without the bean (a native image without its hints)
			}
		}

		private static MethodHandle getter(MethodHandles.Lookup lookup, Class<?> type, Object bean, String name,
				Class<?> returnType) throws ReflectiveOperationException {
			return lookup.findVirtual(type, name, MethodType.methodType(returnType)).bindTo(bean);
		}

	}

}
