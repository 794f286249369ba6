package io.github.threadmodel.actuate;

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
record VirtualThreadScheduler(int parallelism, int poolSize, int mounted, long queued) {

	private static final String OBJECT_NAME = "jdk.management:type=VirtualThreadScheduler";

	/**
	 * Reads the scheduler's figures.
	 * @return the figures, or {@code null} before JDK 24 or where JMX is not available
	 */
	static VirtualThreadScheduler read() {
		try {
			MBeanServer server = ManagementFactory.getPlatformMBeanServer();
			ObjectName name = new ObjectName(OBJECT_NAME);
			if (!server.isRegistered(name)) {
				return null;
			}
			return new VirtualThreadScheduler(number(server, name, "Parallelism").intValue(),
					number(server, name, "PoolSize").intValue(),
					number(server, name, "MountedVirtualThreadCount").intValue(),
					number(server, name, "QueuedVirtualThreadCount").longValue());
		}
		catch (JMException | RuntimeException | LinkageError ex) {
			return null;
		}
	}

	private static Number number(MBeanServer server, ObjectName name, String attribute) throws JMException {
		return (Number) server.getAttribute(name, attribute);
	}

}
