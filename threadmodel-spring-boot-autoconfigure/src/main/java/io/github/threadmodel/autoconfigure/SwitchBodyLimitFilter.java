package io.github.threadmodel.autoconfigure;

import java.io.ByteArrayInputStream;
import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Refuses a write to the {@code threadmodel} endpoint whose body is larger than
 * {@link SwitchBodyLimit#MAX_BYTES} with 413, on servlet servers. It reads at most one byte
 * more than the limit and hands the endpoint the bytes it read; a refused body is read to its
 * end (up to 2 MB) and dropped, so that the refusal reaches the client.
 */
class SwitchBodyLimitFilter extends OncePerRequestFilter {

	/** The most of a refused body read before the connection is closed: Tomcat's default {@code maxSwallowSize}. */
	static final long MAX_DISCARDED_BYTES = 2 * 1024 * 1024;

	private final SwitchBodyLimit limit;

	/**
	 * Creates the filter.
	 * @param limit the limit
	 */
	public SwitchBodyLimitFilter(SwitchBodyLimit limit) {
		this.limit = limit;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		if (!this.limit.applies(request.getMethod(), request.getRequestURI())) {
			chain.doFilter(request, response);
			return;
		}
		byte[] body = (request.getContentLengthLong() > SwitchBodyLimit.MAX_BYTES) ? null
				: request.getInputStream().readNBytes(SwitchBodyLimit.MAX_BYTES + 1);
		if (body != null && body.length <= SwitchBodyLimit.MAX_BYTES) {
			chain.doFilter(new ReadBody(request, body), response);
			return;
		}
		discardRest(request);
		response.setStatus(SwitchBodyLimit.STATUS.value());
		response.setContentType(MediaType.TEXT_PLAIN_VALUE);
		response.setContentLength(SwitchBodyLimit.MESSAGE.length);
		response.setHeader("Connection", "close");
		response.getOutputStream().write(SwitchBodyLimit.MESSAGE);
	}

	/**
	 * Reads and drops what is left of the body, up to {@link #MAX_DISCARDED_BYTES}, before the
	 * refusal is written (once it is, Tomcat closes the body's stream). A server that closes a
	 * connection with bytes of the request still unread resets it, and the reset can reach the
	 * client before the 413 does (Jetty: about 1 in 100 chunked bodies of 100 KB); Tomcat
	 * drains the same way by itself, up to its {@code maxSwallowSize}.
	 */
	private static void discardRest(HttpServletRequest request) throws IOException {
		long length = request.getContentLengthLong();
		if (length > MAX_DISCARDED_BYTES) {
			return;
		}
		ServletInputStream body = request.getInputStream();
		byte[] scratch = new byte[8192];
		long discarded = 0;
		int read;
		while (discarded < MAX_DISCARDED_BYTES && (read = body.read(scratch)) != -1) {
			discarded += read;
		}
	}

	/**
	 * The request with the body the filter read.
	 */
	private static final class ReadBody extends HttpServletRequestWrapper {

		private final ByteArrayInputStream body;

		ReadBody(HttpServletRequest request, byte[] body) {
			super(request);
			this.body = new ByteArrayInputStream(body);
		}

		@Override
		public ServletInputStream getInputStream() {
			return new ServletInputStream() {

				@Override
				public int read() {
					return ReadBody.this.body.read();
				}

				@Override
				public int read(byte[] buffer, int offset, int length) {
					return ReadBody.this.body.read(buffer, offset, length);
				}

				@Override
				public boolean isFinished() {
					return ReadBody.this.body.available() == 0;
				}

				@Override
				public boolean isReady() {
					return true;
				}

				@Override
				public void setReadListener(ReadListener listener) {
					throw new UnsupportedOperationException("The body was read already");
				}

			};
		}

	}

}
