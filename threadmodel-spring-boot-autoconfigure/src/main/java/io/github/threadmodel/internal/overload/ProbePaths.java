package io.github.threadmodel.internal.overload;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.ResolvableType;
import org.springframework.core.env.Environment;

/**
 * The request paths that never wait for a turn nor get a 503: Spring Boot's health
 * endpoint and its groups (liveness, readiness and every configured group) under the
 * actuator's base path, each group's {@code additional-path}, and the paths of
 * {@code app.threads.probes.paths}. Read from Spring Boot's own properties rather than
 * from the actuator's beans, which differ between the Boot lines.
 * <p>
 * A path matches only as the client wrote it, exactly, after the servlet context path:
 * no decoding, no normalization, no trailing slash, so that no variant of a probe path can
 * carry another request past the limits.
 */
public final class ProbePaths {

	private static final List<String> PROBE_GROUPS = List.of("liveness", "readiness");

	/** Each health group's properties by name, as written. */
	private static final Bindable<Map<String, Map<String, String>>> GROUPS = Bindable
		.of(ResolvableType.forClassWithGenerics(Map.class, ResolvableType.forClass(String.class),
				ResolvableType.forClassWithGenerics(Map.class, String.class, String.class)));

	private final Set<String> paths;

	/**
	 * Creates the set of paths.
	 * @param paths the paths, each relative to the servlet context path
	 */
	public ProbePaths(Set<String> paths) {
		this.paths = Set.copyOf(paths);
	}

	/**
	 * The paths from the environment's Spring Boot and starter properties.
	 * @param environment the environment
	 * @param extra the paths of {@code app.threads.probes.paths}
	 * @return the paths
	 */
	public static ProbePaths of(Environment environment, List<String> extra) {
		Binder binder = Binder.get(environment);
		String servletPath = trimSlash(binder.bind("spring.mvc.servlet.path", String.class).orElse(""));
		String basePath = trimSlash(binder.bind("management.endpoints.web.base-path", String.class).orElse("/actuator"));
		String health = servletPath + basePath + trimSlash(
				binder.bind("management.endpoints.web.path-mapping.health", String.class).orElse("health"));
		Set<String> paths = new LinkedHashSet<>();
		paths.add(health);
		PROBE_GROUPS.forEach((group) -> paths.add(health + "/" + group));
		Map<String, Map<String, String>> groups = binder.bind("management.endpoint.health.group", GROUPS)
			.orElse(Map.of());
		groups.forEach((name, group) -> {
			paths.add(health + "/" + name);
			String additionalPath = group.get("additional-path");
			if (additionalPath != null) {
				// "server:/livez" or "management:/livez"; the same port serves both unless
				// management.server.port is set, and then this server has no other
				paths.add(servletPath + trimSlash(additionalPath.replaceFirst("^[a-z]+:", "")));
			}
		});
		paths.addAll(extra);
		return new ProbePaths(paths);
	}

	/**
	 * A path as Spring Boot cleans its path properties: a leading slash, no trailing one,
	 * {@code ""} for the root.
	 */
	static String trimSlash(String path) {
		String trimmed = path.strip();
		while (trimmed.endsWith("/")) {
			trimmed = trimmed.substring(0, trimmed.length() - 1);
		}
		return (trimmed.isEmpty() || trimmed.startsWith("/")) ? trimmed : "/" + trimmed;
	}

	/**
	 * Whether a request's path is one of the probe paths.
	 * @param requestUri the request URI as the client sent it, without the query
	 * @param contextPath the servlet context path ({@code ""} for the root)
	 * @return whether it matches a path exactly
	 */
	public boolean matches(String requestUri, String contextPath) {
		return requestUri.startsWith(contextPath) && this.paths.contains(requestUri.substring(contextPath.length()));
	}

	/**
	 * The paths.
	 * @return the paths, each relative to the servlet context path
	 */
	public Set<String> paths() {
		return this.paths;
	}

}
