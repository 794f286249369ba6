package io.github.threadmodel.internal.actuate;

import java.lang.management.ManagementFactory;

import io.github.threadmodel.actuate.ThreadModelDescriptor.StartupDescriptor;

import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.event.ContextRefreshedEvent;
import org.springframework.context.event.SmartApplicationListener;

/**
 * Records when the application reached each step of its startup, in milliseconds since
 * the JVM started (so that JVM, CDS, AOT and native startups compare on one scale).
 */
public class StartupTimeline implements SmartApplicationListener {

	private final Class<? extends ApplicationEvent> webServerInitializedEvent;

	private volatile Long contextRefreshedMs;

	private volatile Long webServerStartedMs;

	private volatile Long applicationReadyMs;

	/**
	 * Creates the timeline.
	 * @param webServerInitializedEvent the Boot line's {@code WebServerInitializedEvent}
	 * (its package moved between Boot 3.5 and 4)
	 */
	public StartupTimeline(Class<? extends ApplicationEvent> webServerInitializedEvent) {
		this.webServerInitializedEvent = webServerInitializedEvent;
	}

	@Override
	public boolean supportsEventType(Class<? extends ApplicationEvent> eventType) {
		return ContextRefreshedEvent.class.isAssignableFrom(eventType)
				|| this.webServerInitializedEvent.isAssignableFrom(eventType)
				|| ApplicationReadyEvent.class.isAssignableFrom(eventType);
	}

	@Override
	public void onApplicationEvent(ApplicationEvent event) {
		long uptime = ManagementFactory.getRuntimeMXBean().getUptime();
		if (event instanceof ContextRefreshedEvent && this.contextRefreshedMs == null) {
			this.contextRefreshedMs = uptime;
		}
		else if (this.webServerInitializedEvent.isInstance(event) && this.webServerStartedMs == null) {
			this.webServerStartedMs = uptime;
		}
		else if (event instanceof ApplicationReadyEvent && this.applicationReadyMs == null) {
			this.applicationReadyMs = uptime;
		}
	}

	/**
	 * The steps reached so far; a step not reached yet is {@code null}.
	 * @return the timeline
	 */
	public StartupDescriptor steps() {
		return new StartupDescriptor(this.contextRefreshedMs, this.webServerStartedMs, this.applicationReadyMs);
	}

}
