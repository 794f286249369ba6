package io.github.threadmodel.autoconfigure;

import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

import io.github.threadmodel.actuate.ThreadModelEndpoint;

import org.springframework.boot.actuate.endpoint.web.PathMappedEndpoints;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatusCode;

/**
 * The largest body a write to the {@code threadmodel} endpoint may have. A switch body is a
 * few dozen bytes; a larger one is refused with 413 before the endpoint reads it, on every server (Spring
 * Boot reads an endpoint's body whole, with no limit on servlet servers, and WebFlux's codec
 * limit is 256 KB), by {@link SwitchBodyLimitFilter} (servlet) and
 * {@link SwitchBodyLimitDecorator} (WebFlux): at once for a {@code Content-Length} over the
 * limit, otherwise once the bytes read pass it (a chunked body).
 */
final class SwitchBodyLimit {

	/** The most bytes a switch body may have. */
	public static final int MAX_BYTES = 1024;

	/** 413; named {@code PAYLOAD_TOO_LARGE} in Spring Framework 6 and {@code CONTENT_TOO_LARGE} in 7. */
	static final HttpStatusCode STATUS = HttpStatusCode.valueOf(413);

	static final byte[] MESSAGE = ("A thread model switch body has at most " + MAX_BYTES + " bytes\n")
		.getBytes(StandardCharsets.UTF_8);

	private final Supplier<PathMappedEndpoints> endpoints;

	/**
	 * Creates the limit.
	 * @param endpoints supplies the endpoints' paths (the management base path and each
	 * endpoint's mapping), or {@code null} when there are none
	 */
	public SwitchBodyLimit(Supplier<PathMappedEndpoints> endpoints) {
		this.endpoints = endpoints;
	}

	/**
	 * Whether a request is a write to the endpoint.
	 * @param method the request's method
	 * @param path the request's path
	 * @return whether its body is limited
	 */
	boolean applies(String method, String path) {
		if (!HttpMethod.POST.matches(method)) {
			return false;
		}
		PathMappedEndpoints endpoints = this.endpoints.get();
		String endpointPath = (endpoints != null) ? endpoints.getPath(ThreadModelEndpoint.ID) : null;
		return endpointPath != null && path.endsWith(endpointPath);
	}

}
