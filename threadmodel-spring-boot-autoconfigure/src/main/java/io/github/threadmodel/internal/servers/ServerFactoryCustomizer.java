package io.github.threadmodel.internal.servers;

import java.util.function.Consumer;

import org.springframework.boot.web.server.WebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.core.Ordered;

/**
 * Applies one server's part of the thread model (a {@code TomcatThreadModel},
 * {@code JettyThreadModel}, ...) to that server's factory, after Spring Boot's own
 * customizers of it. The factory types are each Boot line's own, so each line's
 * web-server auto-configuration names the type and what to do with it; the order and the
 * type check are written here once, for both lines ({@code WebServerFactory} and
 * {@code WebServerFactoryCustomizer} have the same names on both).
 *
 * @param <F> the type of the server's factory
 */
public final class ServerFactoryCustomizer<F extends WebServerFactory>
		implements WebServerFactoryCustomizer<WebServerFactory>, Ordered {

	/**
	 * The order of the starter's server customizers. Spring Boot's customizers that apply
	 * {@code server.*} ({@code TomcatWebServerFactoryCustomizer} and its kin) have order 0,
	 * the ones for {@code spring.threads.virtual.enabled}
	 * ({@code TomcatVirtualThreadsWebServerFactoryCustomizer},
	 * {@code JettyVirtualThreadsWebServerFactoryCustomizer}) order 1; the starter's come
	 * after them, so that the server gets the starter's executor, while an application's
	 * own customizer can still come later.
	 */
	public static final int ORDER = 10;

	private final Class<F> factoryType;

	private final Consumer<? super F> customization;

	/**
	 * Creates a customizer of the factories of the given type.
	 * @param factoryType the type of the server's factory (others are left alone)
	 * @param customization what to do with each such factory
	 */
	public ServerFactoryCustomizer(Class<F> factoryType, Consumer<? super F> customization) {
		this.factoryType = factoryType;
		this.customization = customization;
	}

	/**
	 * The type of factory customized.
	 * @return the type
	 */
	public Class<F> factoryType() {
		return this.factoryType;
	}

	@Override
	public void customize(WebServerFactory factory) {
		if (this.factoryType.isInstance(factory)) {
			this.customization.accept(this.factoryType.cast(factory));
		}
	}

	@Override
	public int getOrder() {
		return ORDER;
	}

}
