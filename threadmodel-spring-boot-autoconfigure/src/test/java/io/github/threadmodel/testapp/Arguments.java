package io.github.threadmodel.testapp;

import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The command-line arguments a test application starts with: the defaults of the test
 * servers, less those a test sets itself (Spring Boot would join two values of one option
 * with a comma), then the test's.
 */
public final class Arguments {

	private Arguments() {
	}

	/**
	 * @param defaults the defaults, each {@code name=value}
	 * @param properties the test's properties, each {@code name=value}
	 * @return the arguments, each {@code --name=value}
	 */
	public static String[] of(List<String> defaults, String... properties) {
		Set<String> given = Arrays.stream(properties).map(Arguments::name).collect(Collectors.toSet());
		return Stream.concat(defaults.stream().filter((property) -> !given.contains(name(property))),
				Arrays.stream(properties))
			.map((property) -> "--" + property)
			.toArray(String[]::new);
	}

	private static String name(String property) {
		int equals = property.indexOf('=');
		return (equals < 0) ? property : property.substring(0, equals);
	}

}
