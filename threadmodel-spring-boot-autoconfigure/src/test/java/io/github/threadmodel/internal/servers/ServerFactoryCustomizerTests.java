package io.github.threadmodel.internal.servers;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.boot.web.server.WebServerFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shared server customizer applies its part to the factories of its type only, after
 * Spring Boot's own customizers.
 */
class ServerFactoryCustomizerTests {

	@Test
	void customizesOnlyFactoriesOfItsType() {
		List<WebServerFactory> customized = new ArrayList<>();
		ServerFactoryCustomizer<TomcatLike> customizer = new ServerFactoryCustomizer<>(TomcatLike.class,
				customized::add);
		TomcatLike tomcat = new TomcatLike() {
		};
		customizer.customize(tomcat);
		customizer.customize(new JettyLike() {
		});
		assertThat(customized).containsExactly(tomcat);
	}

	@Test
	void comesAfterSpringBootsOwnCustomizers() {
		// Spring Boot's server.* customizers have order 0, its virtual-thread ones order 1
		assertThat(new ServerFactoryCustomizer<>(TomcatLike.class, (factory) -> {
		}).getOrder()).isGreaterThan(1);
	}

	interface TomcatLike extends WebServerFactory {

	}

	interface JettyLike extends WebServerFactory {

	}

}
