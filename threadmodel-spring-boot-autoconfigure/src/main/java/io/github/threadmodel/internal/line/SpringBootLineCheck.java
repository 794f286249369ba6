package io.github.threadmodel.internal.line;

import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Stops startup with a clear message when a starter runs on the other Spring Boot line,
 * before any auto-configuration could fail on a class that moved between the lines. Each
 * starter registers its own subclass in {@code META-INF/spring.factories}.
 */
public abstract class SpringBootLineCheck implements ApplicationContextInitializer<ConfigurableApplicationContext> {

	private final SpringBootLine starterLine;

	/**
	 * Creates the check.
	 * @param starterLine the line of the starter that registers it
	 */
	protected SpringBootLineCheck(SpringBootLine starterLine) {
		this.starterLine = starterLine;
	}

	@Override
	public void initialize(ConfigurableApplicationContext context) {
		this.starterLine.requireRunning(context.getClassLoader());
	}

}
