package io.github.threadmodel.internal.lanes;

import java.util.ArrayList;
import java.util.List;

import io.github.threadmodel.executor.ThreadModelExecutor;

import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;
import org.springframework.web.util.pattern.PatternParseException;

/**
 * A lane: a name, the executor its requests run on, and the path patterns of
 * {@code app.threads.lanes.<name>.paths}.
 */
public final class Lane {

	private final String name;

	private final ThreadModelExecutor executor;

	private final List<PathPattern> paths;

	/**
	 * Creates a lane.
	 * @param name its name
	 * @param executor the executor its requests run on
	 * @param paths its path patterns, as configured
	 * @throws InvalidConfigurationPropertyValueException for a path that is no path pattern
	 */
	public Lane(String name, ThreadModelExecutor executor, List<String> paths) {
		this.name = name;
		this.executor = executor;
		this.paths = parse(name, paths);
	}

	private static List<PathPattern> parse(String name, List<String> paths) {
		List<PathPattern> patterns = new ArrayList<>();
		for (int i = 0; i < paths.size(); i++) {
			String path = paths.get(i);
			String property = "app.threads.lanes." + name + ".paths[" + i + "]";
			if (!path.startsWith("/")) {
				throw new InvalidConfigurationPropertyValueException(property, path,
						"Allowed: a path pattern that starts with '/', for example /reports/**.");
			}
			try {
				patterns.add(PathPatternParser.defaultInstance.parse(path));
			}
			catch (PatternParseException ex) {
				throw new InvalidConfigurationPropertyValueException(property, path,
						"Allowed: a Spring path pattern, for example /reports/**; this one: " + ex.getMessage() + ".");
			}
		}
		return List.copyOf(patterns);
	}

	/**
	 * The lane's name.
	 * @return the name, as in {@code app.threads.lanes.<name>}
	 */
	public String name() {
		return this.name;
	}

	/**
	 * The executor the lane's requests run on.
	 * @return the executor
	 */
	public ThreadModelExecutor executor() {
		return this.executor;
	}

	/**
	 * The lane's path patterns.
	 * @return the patterns, as configured
	 */
	public List<String> paths() {
		return this.paths.stream().map(PathPattern::getPatternString).toList();
	}

	List<PathPattern> patterns() {
		return this.paths;
	}

}
