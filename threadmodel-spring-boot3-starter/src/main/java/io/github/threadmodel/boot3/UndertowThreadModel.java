package io.github.threadmodel.boot3;

import java.util.concurrent.Executor;

import io.github.threadmodel.executor.ThreadModel;
import io.github.threadmodel.executor.ThreadModelExecutor;
import io.github.threadmodel.internal.overload.ProbeLane;
import org.xnio.Options;

import org.springframework.boot.web.embedded.undertow.UndertowServletWebServerFactory;

/**
 * Makes Undertow dispatch servlet requests from its I/O threads to the given executor.
 * Deployment-info customizers added here run after the ones Spring Boot registers
 * (including the one for {@code spring.threads.virtual.enabled}), so this one wins. Health
 * probes go to their lane instead ({@link UndertowProbeRouting}); the end of an exchange a
 * virtual thread completes runs on a platform thread ({@link UndertowCompletionOffVirtualThreads}). When
 * the server starts on virtual threads it also gets a buffer pool whose free buffers every
 * thread shares ({@link UndertowBufferPool}); a live switch keeps the pool it started with.
 */
class UndertowThreadModel {

	private final Executor executor;

	private final Integer backlog;

	private final ProbeLane probes;

	/**
	 * Creates Undertow's part of the thread model.
	 * @param executor the executor for request handling
	 * @param backlog the accept backlog to set, or {@code null} to leave Undertow's
	 * @param probes the probes' lane, or {@code null} to run probes on the executor too
	 */
	UndertowThreadModel(Executor executor, Integer backlog, ProbeLane probes) {
		this.executor = executor;
		this.backlog = backlog;
		this.probes = probes;
	}

	/**
	 * Applies it to the server's factory.
	 * @param factory the factory
	 */
	void apply(UndertowServletWebServerFactory factory) {
		factory.addDeploymentInfoCustomizers((deploymentInfo) -> {
			deploymentInfo.addInitialHandlerChainWrapper(new UndertowCompletionOffVirtualThreads());
			if (this.probes != null) {
				UndertowProbeRouting routing = new UndertowProbeRouting(this.executor, this.probes);
				deploymentInfo.setExecutor(routing);
				deploymentInfo.addInitialHandlerChainWrapper(routing);
			}
			else {
				deploymentInfo.setExecutor(this.executor);
			}
		});
		factory.addBuilderCustomizers((builder) -> {
			if (this.executor instanceof ThreadModelExecutor requests && requests.getModel() == ThreadModel.VIRTUAL) {
				new UndertowBufferPool().customize(builder);
			}
		});
		if (this.backlog != null) {
			factory.addBuilderCustomizers((builder) -> builder.setSocketOption(Options.BACKLOG, this.backlog));
		}
	}

}
