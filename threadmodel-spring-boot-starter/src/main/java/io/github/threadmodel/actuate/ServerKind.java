package io.github.threadmodel.actuate;

import java.util.Locale;

import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.boot.web.server.WebServer;
import org.springframework.context.ApplicationContext;

/**
 * Names the embedded web server of an application: {@code tomcat}, {@code jetty},
 * {@code undertow} or {@code netty}.
 */
public final class ServerKind {

	/** The name when the application has no embedded web server (yet). */
	public static final String NONE = "none";

	private ServerKind() {
	}

	/**
	 * The name of the application's web server, taken from Spring Boot's class for it
	 * ({@code TomcatWebServer}, {@code JettyWebServer}, {@code UndertowServletWebServer},
	 * {@code NettyWebServer}).
	 * @param context the application context
	 * @return the server's name, or {@link #NONE}
	 */
	public static String of(ApplicationContext context) {
		WebServer server = (context instanceof WebServerApplicationContext webContext) ? webContext.getWebServer()
				: null;
		if (server == null) {
			return NONE;
		}
		String name = server.getClass().getSimpleName();
		int end = name.indexOf("ServletWebServer") >= 0 ? name.indexOf("ServletWebServer")
				: name.indexOf("WebServer");
		return ((end > 0) ? name.substring(0, end) : name).toLowerCase(Locale.ROOT);
	}

}
