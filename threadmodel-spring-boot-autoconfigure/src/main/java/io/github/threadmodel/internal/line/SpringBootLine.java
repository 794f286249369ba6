package io.github.threadmodel.internal.line;

import org.springframework.boot.SpringBootVersion;
import org.springframework.util.ClassUtils;

/**
 * The Spring Boot lines the starter is built for, one starter artifact each.
 */
public enum SpringBootLine {

	/**
	 * Spring Boot 3.5.x: Tomcat, Jetty 12.0, Undertow and Reactor Netty.
	 */
	BOOT_3("3.5.x", "threadmodel-spring-boot3-starter"),

	/**
	 * Spring Boot 4.x: Tomcat, Jetty 12.1 and Reactor Netty.
	 */
	BOOT_4("4.x", "threadmodel-spring-boot-starter");

	/**
	 * A class of Spring Boot's own jar that only Boot 4 has (3.5 kept it in
	 * spring-boot-autoconfigure's {@code ...autoconfigure.thread} package).
	 */
	private static final String BOOT_4_MARKER = "org.springframework.boot.thread.Threading";

	private final String versions;

	private final String artifactId;

	SpringBootLine(String versions, String artifactId) {
		this.versions = versions;
		this.artifactId = artifactId;
	}

	/**
	 * The line of the Spring Boot the application runs.
	 * @param classLoader the application's class loader
	 * @return the running line
	 */
	public static SpringBootLine running(ClassLoader classLoader) {
		return ClassUtils.isPresent(BOOT_4_MARKER, classLoader) ? BOOT_4 : BOOT_3;
	}

	/**
	 * Fails unless the application runs this line.
	 * @param classLoader the application's class loader
	 * @throws WrongSpringBootLineException when it runs the other line
	 */
	public void requireRunning(ClassLoader classLoader) {
		SpringBootLine running = running(classLoader);
		if (running != this) {
			String found = SpringBootVersion.getVersion();
			throw new WrongSpringBootLineException(this, running, (found != null) ? found : running.versions);
		}
	}

	/**
	 * The versions of the line, as the docs write them.
	 * @return for example {@code 4.x}
	 */
	public String versions() {
		return this.versions;
	}

	/**
	 * The starter's artifact for this line (group {@code io.github.threadmodel}).
	 * @return the artifact id
	 */
	public String artifactId() {
		return this.artifactId;
	}

}
