package io.github.threadmodel.internal.actuate;

import java.util.Locale;
import java.util.function.Supplier;

/**
 * Names the embedded web server of an application: {@code tomcat}, {@code jetty},
 * {@code undertow} or {@code netty}. Each starter gives it the application's web server,
 * found through its Boot line's {@code WebServerApplicationContext} (which moved between
 * Boot 3.5 and 4).
 */
public final class ServerKind {

	/** The name when the application has no embedded web server (yet). */
	public static final String NONE = "none";

	private final Supplier<Object> webServer;

	/**
	 * Creates the naming.
	 * @param webServer supplies the application's web server, or {@code null} while it
	 * has none
	 */
	public ServerKind(Supplier<Object> webServer) {
		this.webServer = webServer;
	}

	/**
	 * The name of the application's web server, taken from Spring Boot's class for it
	 * ({@code TomcatWebServer}, {@code JettyWebServer}, {@code UndertowServletWebServer},
	 * {@code NettyWebServer}, the same on both Boot lines).
	 * @return the server's name, or {@link #NONE}
	 */
	public String name() {
		Object server = this.webServer.get();
		if (server == null) {
			return NONE;
		}
		String name = server.getClass().getSimpleName();
		int end = name.indexOf("ServletWebServer") >= 0 ? name.indexOf("ServletWebServer")
				: name.indexOf("WebServer");
		return ((end > 0) ? name.substring(0, end) : name).toLowerCase(Locale.ROOT);
	}

}
