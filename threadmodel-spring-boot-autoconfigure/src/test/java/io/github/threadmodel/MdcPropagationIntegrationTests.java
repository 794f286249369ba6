package io.github.threadmodel;

import java.net.http.HttpResponse;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import io.github.threadmodel.testapp.Http;
import io.github.threadmodel.testapp.MdcTasks;
import io.github.threadmodel.testapp.TestServers;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A key the application puts in the MDC on the request thread reaches, through the
 * application's own {@code TaskDecorator} (one of several, all applied), every place its
 * work runs off that thread: an {@code @Async} method, a {@code Callable}, a
 * {@code DeferredResult} completed by the task executor and a {@code StreamingResponseBody}
 * on a servlet server, a blocking controller method on WebFlux ({@link MdcTasks}).
 */
class MdcPropagationIntegrationTests {

	@Nested
	@SpringBootTest(classes = { TestServers.TomcatApp.class, MdcTasks.class },
			webEnvironment = WebEnvironment.RANDOM_PORT, properties = "app.threads.model=virtual")
	class OnServlet {

		@LocalServerPort
		private int port;

		@Test
		void theMdcReachesTheApplicationTasks() throws Exception {
			Http http = new Http(this.port);
			for (String path : MdcTasks.SERVLET_PATHS) {
				assertMdcSeen(http, path, "task-virtual-");
			}
		}

	}

	@Nested
	@SpringBootTest(classes = { TestServers.NettyApp.class, MdcTasks.class },
			webEnvironment = WebEnvironment.RANDOM_PORT,
			properties = { "spring.main.web-application-type=reactive", "app.threads.model=platform" })
	class OnWebFlux {

		@LocalServerPort
		private int port;

		@Test
		void theMdcReachesABlockingControllerMethod() throws Exception {
			assertMdcSeen(new Http(this.port), "/mdc/blocking", "request-platform-");
		}

	}

	/**
	 * A request with an id of its own saw that id in the MDC, on a thread whose name starts
	 * as given, decorated by both decorators.
	 */
	private static void assertMdcSeen(Http http, String path, String thread) throws Exception {
		String requestId = UUID.randomUUID().toString();
		HttpResponse<String> response = http.getAsync(path, MdcTasks.HEADER, requestId).get(30, TimeUnit.SECONDS);
		assertThat(response.statusCode()).as("%s: %s", path, response.body()).isEqualTo(200);
		assertThat(response.body()).as(path).startsWith("requestId=" + requestId + " marked=true thread=" + thread);
	}

}
