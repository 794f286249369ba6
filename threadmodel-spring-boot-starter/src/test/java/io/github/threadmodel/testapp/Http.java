package io.github.threadmodel.testapp;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import com.fasterxml.jackson.databind.ObjectMapper;

import org.springframework.context.ApplicationContext;

/**
 * Real HTTP requests to a started test application.
 */
public final class Http {

	private static final ObjectMapper json = new ObjectMapper();

	private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private final int port;

	private final int managementPort;

	public Http(ApplicationContext context) {
		this.port = Integer.parseInt(context.getEnvironment().getProperty("local.server.port"));
		String management = context.getEnvironment().getProperty("local.management.port");
		this.managementPort = (management != null) ? Integer.parseInt(management) : this.port;
	}

	public String get(String path) {
		HttpResponse<String> response = send(this.port, path);
		if (response.statusCode() != 200) {
			throw new IllegalStateException("GET " + path + " answered " + response.statusCode() + ": "
					+ response.body());
		}
		return response.body();
	}

	public HttpResponse<String> send(String path) {
		return send(this.port, path);
	}

	/**
	 * {@code POST /actuator/threadmodel} with a JSON body.
	 */
	public HttpResponse<String> postThreadModel(String json) {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + this.managementPort
				+ "/actuator/threadmodel"))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(json))
			.timeout(Duration.ofSeconds(30))
			.build();
		return exchange(request);
	}

	public CompletableFuture<HttpResponse<String>> getAsync(String path) {
		return this.client.sendAsync(request(this.port, path), BodyHandlers.ofString());
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
		try {
			return this.client.send(request, BodyHandlers.ofString());
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

}
