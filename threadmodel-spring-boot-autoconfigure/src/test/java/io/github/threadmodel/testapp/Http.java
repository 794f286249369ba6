package io.github.threadmodel.testapp;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import com.fasterxml.jackson.databind.ObjectMapper;

import org.springframework.context.ApplicationContext;

/**
 * Real HTTP requests to a started test application.
 */
public final class Http {

	private static final ObjectMapper json = new ObjectMapper();

	private final HttpClient client = newClient();

	private final int port;

	private final int managementPort;

	public Http(ApplicationContext context) {
		this.port = Integer.parseInt(context.getEnvironment().getProperty("local.server.port"));
		String management = context.getEnvironment().getProperty("local.management.port");
		this.managementPort = (management != null) ? Integer.parseInt(management) : this.port;
	}

	/**
	 * The application's port (not the management server's).
	 */
	public int port() {
		return this.port;
	}

	public String get(String path) {
		return ok(path, send(this.port, path));
	}

	public HttpResponse<String> send(String path) {
		return send(this.port, path);
	}

	/**
	 * A GET on a connection of its own. A server may serve the next request of a kept-alive
	 * connection in the task that served the previous one, on that task's thread.
	 */
	public String getOnNewConnection(String path) {
		try (HttpClient fresh = newClient()) {
			return ok(path, exchange(fresh, request(this.port, path)));
		}
	}

	private static String ok(String path, HttpResponse<String> response) {
		if (response.statusCode() != 200) {
			throw new IllegalStateException("GET " + path + " answered " + response.statusCode() + ": "
					+ response.body());
		}
		return response.body();
	}

	/**
	 * {@code POST /actuator/threadmodel} with a JSON body.
	 */
	public HttpResponse<String> postThreadModel(String json) {
		return postActuator("threadmodel", json);
	}

	/**
	 * A {@code POST} with a JSON body to an actuator endpoint, for example {@code env}.
	 */
	public HttpResponse<String> postActuator(String endpoint, String json) {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + this.managementPort
				+ "/actuator/" + endpoint))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(json))
			.timeout(Duration.ofSeconds(30))
			.build();
		return exchange(request);
	}

	/**
	 * {@code POST /actuator/threadmodel} with a JSON body sent chunked, without a
	 * {@code Content-Length}.
	 */
	public HttpResponse<String> postThreadModelChunked(String json) {
		byte[] body = json.getBytes(StandardCharsets.UTF_8);
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + this.managementPort
				+ "/actuator/threadmodel"))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body)))
			.timeout(Duration.ofSeconds(30))
			.build();
		return exchange(request);
	}

	public CompletableFuture<HttpResponse<String>> getAsync(String path) {
		return this.client.sendAsync(request(this.port, path), BodyHandlers.ofString());
	}

	/**
	 * A GET over HTTP/1.1 (one connection per request in flight) with the given headers,
	 * as name-value pairs.
	 */
	public CompletableFuture<HttpResponse<String>> getAsync(String path, String... headers) {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + path))
			.version(HttpClient.Version.HTTP_1_1)
			.timeout(Duration.ofSeconds(60));
		if (headers.length > 0) {
			request.headers(headers);
		}
		return this.client.sendAsync(request.build(), BodyHandlers.ofString());
	}

	/**
	 * A meter's value from {@code /actuator/metrics}, summed over the series that match the tags.
	 */
	@SuppressWarnings("unchecked")
	public double metric(String name, String... tags) {
		StringBuilder path = new StringBuilder("/actuator/metrics/").append(name);
		for (int i = 0; i < tags.length; i++) {
			path.append((i == 0) ? '?' : '&').append("tag=").append(tags[i]);
		}
		HttpResponse<String> response = send(this.managementPort, path.toString());
		try {
			Map<String, Object> body = json.readValue(response.body(), Map.class);
			List<Map<String, Object>> measurements = (List<Map<String, Object>>) body.get("measurements");
			return ((Number) measurements.get(0).get("value")).doubleValue();
		}
		catch (IOException | RuntimeException ex) {
			throw new IllegalStateException(response.statusCode() + " " + response.body(), ex);
		}
	}

	@SuppressWarnings("unchecked")
	public Map<String, Object> threadModel() {
		HttpResponse<String> response = send(this.managementPort, "/actuator/threadmodel");
		try {
			return json.readValue(response.body(), Map.class);
		}
		catch (IOException ex) {
			throw new IllegalStateException(response.statusCode() + " " + response.body(), ex);
		}
	}

	private HttpResponse<String> send(int port, String path) {
		return exchange(request(port, path));
	}

	private HttpResponse<String> exchange(HttpRequest request) {
		return exchange(this.client, request);
	}

	private static HttpResponse<String> exchange(HttpClient client, HttpRequest request) {
		try {
			return client.send(request, BodyHandlers.ofString());
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private static HttpRequest request(int port, String path) {
		return HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
			.timeout(Duration.ofSeconds(30))
			.build();
	}

	private static HttpClient newClient() {
		return HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
	}

}
