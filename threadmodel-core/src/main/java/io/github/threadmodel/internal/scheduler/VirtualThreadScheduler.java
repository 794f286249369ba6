package io.github.threadmodel.internal.scheduler;

import java.lang.management.ManagementFactory;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * The JDK's virtual-thread scheduler, read from {@code jdk.management.VirtualThreadSchedulerMXBean}
 * (JDK 24+). Read through JMX by name because the project compiles for Java 21, which
 * does not have that interface.
 *
 * @param parallelism carrier threads the scheduler aims to keep busy
 * @param poolSize carrier threads that exist
 * @param mounted virtual threads running on a carrier now
 * @param queued virtual threads waiting for a carrier
 */
public record VirtualThreadScheduler(int parallelism, int poolSize, int mounted, long queued) {

	private static final String OBJECT_NAME = "jdk.management:type=VirtualThreadScheduler";

	private static final String QUEUED = "QueuedVirtualThreadCount";

	/**
	 * Reads the scheduler's figures.
	 * @return the figures, or {@code null} before JDK 24 or where JMX is not available
	 */
	public static VirtualThreadScheduler read() {
		try {
			MBeanServer server = ManagementFactory.getPlatformMBeanServer();
			ObjectName name = new ObjectName(OBJECT_NAME);
			if (!server.isRegistered(name)) {
				return null;
			}
			return new VirtualThreadScheduler(number(server, name, "Parallelism").intValue(),
					number(server, name, "PoolSize").intValue(),
					number(server, name, "MountedVirtualThreadCount").intValue(),
					number(server, name, QUEUED).longValue());
		}
		catch (JMException | RuntimeException | LinkageError ex) {
			return null;
		}
	}

	/**
	 * Reads only the virtual threads waiting for a carrier: the one figure the adaptive
	 * limit needs each time a task waits for a permit.
	 * @return the count, or {@code -1} before JDK 24 or where JMX is not available
	 */
	public static long readQueued() {
		try {
			MBeanServer server = ManagementFactory.getPlatformMBeanServer();
			ObjectName name = new ObjectName(OBJECT_NAME);
			return server.isRegistered(name) ? number(server, name, QUEUED).longValue() : -1;
		}
		catch (JMException | RuntimeException | LinkageError ex) {
			return -1;
		}
	}

	private static Number number(MBeanServer server, ObjectName name, String attribute) throws JMException {
		return (Number) server.getAttribute(name, attribute);
	}

}
