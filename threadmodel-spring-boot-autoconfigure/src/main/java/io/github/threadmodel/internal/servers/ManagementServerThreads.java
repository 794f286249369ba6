package io.github.threadmodel.internal.servers;

import org.apache.catalina.connector.Connector;
import org.apache.coyote.ProtocolHandler;
import org.apache.tomcat.util.threads.VirtualThreadExecutor;

/**
 * Keeps the request threads of a management server on a port of its own
 * ({@code management.server.port}) platform threads, as Spring Boot gives it without
 * {@code spring.threads.virtual.enabled}. With that property Spring Boot's virtual-thread
 * customizers apply to the management server's factory too; the health probes sent there
 * then wait for a carrier of the virtual threads, which CPU-bound requests of the
 * application can hold for seconds (virtual threads are not time-sliced), and the kubelet
 * restarts the pod. Platform threads are time-sliced by the OS with every busy carrier.
 * The management server serves only the actuator, so it needs few of them; the
 * application's requests keep the model they were given. Each line's management context
 * configuration applies it to that line's factory types, after Spring Boot's customizers.
 */
public final class ManagementServerThreads {

	private ManagementServerThreads() {
	}

	/**
	 * Gives a Tomcat connector back to a pool of platform threads of Tomcat's own, which it
	 * makes when it starts, in place of Spring Boot's virtual-thread executor; any other
	 * executor is left alone.
	 * @param connector the management server's connector
	 */
	public static void tomcat(Connector connector) {
		ProtocolHandler handler = connector.getProtocolHandler();
		if (handler.getExecutor() instanceof VirtualThreadExecutor) {
			handler.setExecutor(null);
		}
	}

}
