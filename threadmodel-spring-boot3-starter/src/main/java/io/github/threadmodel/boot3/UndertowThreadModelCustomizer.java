package io.github.threadmodel.boot3;

import java.util.concurrent.Executor;

import io.github.threadmodel.executor.ThreadModel;
import io.github.threadmodel.executor.ThreadModelExecutor;
import org.xnio.Options;

import org.springframework.boot.web.embedded.undertow.UndertowServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.core.Ordered;

/**
 * Makes Undertow dispatch servlet requests from its I/O threads to the given executor.
 * Deployment-info customizers added here run after the ones Spring Boot registers
 * (including the one for {@code spring.threads.virtual.enabled}), so this one wins. When
 * the server starts on virtual threads it also gets a buffer pool whose free buffers every
 * thread shares ({@link UndertowBufferPool}); a live switch keeps the pool it started with.
 */
class UndertowThreadModelCustomizer
		implements WebServerFactoryCustomizer<UndertowServletWebServerFactory>, Ordered {

	private final Executor executor;

	private final Integer backlog;

	/**
	 * Creates a customizer.
	 * @param executor the executor for request handling
	 * @param backlog the accept backlog to set, or {@code null} to leave Undertow's
	 */
	UndertowThreadModelCustomizer(Executor executor, Integer backlog) {
		this.executor = executor;
		this.backlog = backlog;
	}

	@Override
	public void customize(UndertowServletWebServerFactory factory) {
		factory.addDeploymentInfoCustomizers((deploymentInfo) -> deploymentInfo.setExecutor(this.executor));
		factory.addBuilderCustomizers((builder) -> {
			if (this.executor instanceof ThreadModelExecutor requests && requests.getModel() == ThreadModel.VIRTUAL) {
				new UndertowBufferPool().customize(builder);
			}
		});
		if (this.backlog != null) {
			factory.addBuilderCustomizers((builder) -> builder.setSocketOption(Options.BACKLOG, this.backlog));
		}
	}

	@Override
	public int getOrder() {
		return ThreadModelWebServerAutoConfiguration.CUSTOMIZER_ORDER;
	}

}
