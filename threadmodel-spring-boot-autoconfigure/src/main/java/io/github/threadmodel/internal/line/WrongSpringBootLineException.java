package io.github.threadmodel.internal.line;

/**
 * Thrown at startup when the application runs the starter of one Spring Boot line on the
 * other line.
 */
class WrongSpringBootLineException extends RuntimeException {

	private final SpringBootLine starterLine;

	private final SpringBootLine runningLine;

	private final String runningVersion;

	WrongSpringBootLineException(SpringBootLine starterLine, SpringBootLine runningLine, String runningVersion) {
		super("%s is for Spring Boot %s, but the application runs Spring Boot %s".formatted(starterLine.artifactId(),
				starterLine.versions(), runningVersion));
		this.starterLine = starterLine;
		this.runningLine = runningLine;
		this.runningVersion = runningVersion;
	}

	/**
	 * The line of the starter on the class path.
	 * @return the starter's line
	 */
	public SpringBootLine getStarterLine() {
		return this.starterLine;
	}

	/**
	 * The line the application runs.
	 * @return the running line
	 */
	public SpringBootLine getRunningLine() {
		return this.runningLine;
	}

	/**
	 * The Spring Boot version the application runs.
	 * @return the version
	 */
	public String getRunningVersion() {
		return this.runningVersion;
	}

}
