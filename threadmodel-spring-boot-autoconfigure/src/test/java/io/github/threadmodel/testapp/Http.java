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
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import com.fasterxml.jackson.databind.ObjectMapper;

import org.springframework.context.ApplicationContext;

/**
 * Real HTTP requests to a started test application, with the JDK's {@link HttpClient}:
 * {@link #get} insists on a 200, the others answer every status as it comes. Each instance
 * has its own connections: a server may serve the next request of a kept-alive connection
 * in the task that served the previous one, on the model that task started on. (Requests
 * the JDK's client cannot write, such as unnormalized paths or {@code Connection: close},
 * go through {@link RawHttp}.)
 */
public final class Http {

	private static final ObjectMapper json = new ObjectMapper();

	private final HttpClient client = newClient();

	private final int port;

	private final int managementPort;

	/** The {@code Authorization} header of every request, or {@code null}. */
	private final String authorization;

	public Http(ApplicationContext context) {
		this(Integer.parseInt(context.getEnvironment().getProperty("local.server.port")),
				managementPort(context), null);
	}

	/**
	 * Requests to an application whose actuator is on its port.
	 */
	public Http(int port) {
		this(port, port, null);
	}

	private Http(int port, int managementPort, String authorization) {
		this.port = port;
		this.managementPort = managementPort;
		this.authorization = authorization;
	}

	private static int managementPort(ApplicationContext context) {
		String management = context.getEnvironment().getProperty("local.management.port");
		return (management != null) ? Integer.parseInt(management)
				: Integer.parseInt(context.getEnvironment().getProperty("local.server.port"));
	}

	/**
	 * The same requests with HTTP basic authentication.
	 */
	public Http withBasicAuth(String user, String password) {
		String credentials = Base64.getEncoder()
			.encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
		return new Http(this.port, this.managementPort, "Basic " + credentials);
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
	 * {@code POST /actuator/threadmodel} with the given fields as its JSON body.
	 */
	public HttpResponse<String> postThreadModel(Map<String, ?> fields) {
		try {
			return postThreadModel(json.writeValueAsString(fields));
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * A {@code POST} with a JSON body to an actuator endpoint, for example {@code env}.
	 */
	public HttpResponse<String> postActuator(String endpoint, String json) {
		HttpRequest request = builder(this.managementPort, "/actuator/" + endpoint)
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(json))
			.build();
		return exchange(request);
	}

	/**
	 * {@code POST /actuator/threadmodel} with a JSON body sent chunked, without a
	 * {@code Content-Length}.
	 */
	public HttpResponse<String> postThreadModelChunked(String json) {
		byte[] body = json.getBytes(StandardCharsets.UTF_8);
		HttpRequest request = builder(this.managementPort, "/actuator/threadmodel")
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body)))
			.build();
		return exchange(request);
	}

	public CompletableFuture<HttpResponse<String>> getAsync(String path) {
		return this.client.sendAsync(request(this.port, path), BodyHandlers.ofString());
	}

	/**
	 * A GET on the application's port whose answer is a JSON object, whatever its status.
	 */
	public Map<String, Object> json(String path) {
		return jsonObject(send(path));
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

	public Map<String, Object> threadModel() {
		return managementJson("/actuator/threadmodel");
	}

	/**
	 * A GET on the management port whose answer is a JSON object, whatever its status.
	 */
	public Map<String, Object> managementJson(String path) {
		return jsonObject(send(this.managementPort, path));
	}

	/**
	 * The body of an answer, a JSON object.
	 */
	@SuppressWarnings("unchecked")
	public static Map<String, Object> jsonObject(HttpResponse<String> response) {
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

	private HttpRequest request(int port, String path) {
		return builder(port, path).build();
	}

	private HttpRequest.Builder builder(int port, String path) {
		HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
			.timeout(Duration.ofSeconds(30));
		return (this.authorization != null) ? builder.header("Authorization", this.authorization) : builder;
	}

	private static HttpClient newClient() {
		return HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
	}

}
