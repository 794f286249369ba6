package io.github.threadmodel.sample.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** Real HTTP requests to the application under test, timed. */
public final class Http {

	private static final ObjectMapper JSON = new ObjectMapper();

	private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private final int port;

	public Http(int port) {
		this.port = port;
	}

	public Reply get(String path) {
		return send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
			.timeout(Duration.ofSeconds(20))
			.GET()
			.build());
	}

	/** A POST of a JSON body (sent as it is, well-formed or not). */
	public Reply postJson(String path, String body) {
		return send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
			.timeout(Duration.ofSeconds(20))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(body))
			.build());
	}

	private Reply send(HttpRequest request) {
		long start = System.nanoTime();
		try {
			HttpResponse<String> response = this.client.send(request, HttpResponse.BodyHandlers.ofString());
			long millis = (System.nanoTime() - start) / 1_000_000;
			return new Reply(response.statusCode(), response.headers().firstValue("Content-Type").orElse(""),
					response.body(), millis);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	public record Reply(int status, String contentType, String body, long millis) {

		public JsonNode json() {
			try {
				return JSON.readTree(this.body);
			}
			catch (IOException ex) {
				throw new UncheckedIOException("not JSON: " + this.body, ex);
			}
		}

	}

}
