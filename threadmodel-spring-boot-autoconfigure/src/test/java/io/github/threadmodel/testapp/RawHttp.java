package io.github.threadmodel.testapp;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * HTTP/1.1 GETs written on a socket, so that a test decides exactly what happens to the
 * connection: several requests one after the other on one kept-alive connection, or one
 * request with {@code Connection: close}, or the client closing a kept-alive connection
 * after its answer. (The JDK's {@code HttpClient} pools connections as it sees fit and
 * does not let a request say {@code Connection: close}.)
 */
public final class RawHttp {

	private RawHttp() {
	}

	/**
	 * Sends {@code count} GETs one after the other on one kept-alive connection, each
	 * after the answer to the previous one, then closes the connection.
	 * @return the status of each answer
	 * @throws IllegalStateException when the server closes the connection before the last
	 * request (Tomcat closes it after a 503)
	 */
	public static List<Integer> keptAlive(int port, String path, int count) {
		try (Socket socket = connect(port)) {
			List<Integer> statuses = new ArrayList<>();
			for (int i = 0; i < count; i++) {
				Answer answer = exchange(socket, path, false);
				statuses.add(answer.status());
				if (answer.closing() && i < count - 1) {
					throw new IllegalStateException("the server closed the connection after " + statuses);
				}
			}
			return statuses;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Sends one GET with {@code Connection: close} on a connection of its own.
	 * @return the status of the answer
	 */
	public static int closing(int port, String path) {
		try (Socket socket = connect(port)) {
			return exchange(socket, path, true).status();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Sends one GET with {@code Connection: close} on a connection of its own.
	 * @return the body of the answer, whatever its status
	 */
	public static String body(int port, String path) {
		try (Socket socket = connect(port)) {
			return exchange(socket, path, true).body();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Writes GETs of the paths at once, pipelined on one connection (the last one with
	 * {@code Connection: close}), then reads the answers in order.
	 * @return the body of each answer, after its status and a space
	 */
	public static List<String> pipelined(int port, String... paths) {
		StringBuilder requests = new StringBuilder();
		for (int i = 0; i < paths.length; i++) {
			requests.append(request(paths[i], i == paths.length - 1));
		}
		try (Socket socket = connect(port)) {
			socket.getOutputStream().write(requests.toString().getBytes(StandardCharsets.US_ASCII));
			socket.getOutputStream().flush();
			List<String> answers = new ArrayList<>();
			for (int i = 0; i < paths.length; i++) {
				Answer answer = read(socket.getInputStream());
				answers.add(answer.status() + " " + answer.body());
			}
			return answers;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static Socket connect(int port) throws IOException {
		Socket socket = new Socket("localhost", port);
		socket.setSoTimeout(30_000);
		return socket;
	}

	private static Answer exchange(Socket socket, String path, boolean close) throws IOException {
		OutputStream out = socket.getOutputStream();
		out.write(request(path, close).getBytes(StandardCharsets.US_ASCII));
		out.flush();
		return read(socket.getInputStream());
	}

	private static String request(String path, boolean close) {
		return "GET " + path + " HTTP/1.1\r\nHost: localhost\r\n" + (close ? "Connection: close\r\n" : "") + "\r\n";
	}

	private static Answer read(InputStream in) throws IOException {
		String statusLine = line(in);
		int status = Integer.parseInt(statusLine.split(" ")[1]);
		long length = -1;
		boolean chunked = false;
		boolean closing = false;
		for (String header = line(in); !header.isEmpty(); header = line(in)) {
			String lower = header.toLowerCase(Locale.ROOT);
			if (lower.startsWith("content-length:")) {
				length = Long.parseLong(header.substring(header.indexOf(':') + 1).trim());
			}
			else if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
				chunked = true;
			}
			else if (lower.startsWith("connection:") && lower.contains("close")) {
				closing = true;
			}
		}
		ByteArrayOutputStream body = new ByteArrayOutputStream();
		if (chunked) {
			for (long size = Long.parseLong(line(in).trim(), 16); size > 0; size = Long.parseLong(line(in).trim(), 16)) {
				body.write(read(in, size));
				line(in);
			}
			line(in);
		}
		else if (length >= 0) {
			body.write(read(in, length));
		}
		else {
			body.write(in.readAllBytes()); // the answer ends with the connection
		}
		return new Answer(status, closing, body.toString(StandardCharsets.UTF_8));
	}

	private static String line(InputStream in) throws IOException {
		ByteArrayOutputStream line = new ByteArrayOutputStream();
		for (int b = in.read(); b != '\n'; b = in.read()) {
			if (b < 0) {
				throw new IOException("connection closed in the middle of an answer: " + line);
			}
			if (b != '\r') {
				line.write(b);
			}
		}
		return line.toString(StandardCharsets.US_ASCII);
	}

	private static byte[] read(InputStream in, long count) throws IOException {
		byte[] bytes = in.readNBytes((int) count);
		if (bytes.length != count) {
			throw new IOException("connection closed in the middle of a body");
		}
		return bytes;
	}

	private record Answer(int status, boolean closing, String body) {

	}

}
