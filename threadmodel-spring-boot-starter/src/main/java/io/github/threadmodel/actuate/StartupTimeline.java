package io.github.threadmodel.actuate;

import java.lang.management.ManagementFactory;

import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.web.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.event.ContextRefreshedEvent;
import org.springframework.context.event.SmartApplicationListener;

/**
 * Records when the application reached each step of its startup, in milliseconds since
 * the JVM started (so that JVM, CDS, AOT and native startups compare on one scale).
 */
public class StartupTimeline implements SmartApplicationListener {

	private volatile Long contextRefreshedMs;

	private volatile Long webServerStartedMs;

	private volatile Long applicationReadyMs;

	@Override
	public boolean supportsEventType(Class<? extends ApplicationEvent> eventType) {
		return ContextRefreshedEvent.class.isAssignableFrom(eventType)
				|| WebServerInitializedEvent.class.isAssignableFrom(eventType)
				|| ApplicationReadyEvent.class.isAssignableFrom(eventType);
	}

	@Override
	public void onApplicationEvent(ApplicationEvent event) {
		long uptime = ManagementFactory.getRuntimeMXBean().getUptime();
		if (event instanceof ContextRefreshedEvent && this.contextRefreshedMs == null) {
			this.contextRefreshedMs = uptime;
		}
		else if (event instanceof WebServerInitializedEvent && this.webServerStartedMs == null) {
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
	public Steps steps() {
		return new Steps(this.contextRefreshedMs, this.webServerStartedMs, this.applicationReadyMs);
	}

	/**
	 * Milliseconds from JVM start to each startup step.
	 *
	 * @param contextRefreshedMs the application context was refreshed
	 * @param webServerStartedMs the web server was listening
	 * @param applicationReadyMs the application was ready to serve
	 */
	public record Steps(Long contextRefreshedMs, Long webServerStartedMs, Long applicationReadyMs) {

	}

}
