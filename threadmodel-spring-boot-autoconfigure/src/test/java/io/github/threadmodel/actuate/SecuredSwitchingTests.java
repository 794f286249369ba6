package io.github.threadmodel.actuate;

import java.util.Map;

import io.github.threadmodel.testapp.Http;
import io.github.threadmodel.testapp.TestServers;
import io.github.threadmodel.testapp.ThreadController;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configuration.EnableWebSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Switching restricted to a role with Spring Security, as docs/switching.md shows:
 * anyone may read the endpoint, only {@code OPS} may switch.
 */
@SpringBootTest(classes = SecuredSwitchingTests.SecuredApp.class, webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "management.endpoint.threadmodel.access=unrestricted",
				"management.endpoints.web.exposure.include=threadmodel" })
class SecuredSwitchingTests {

	@LocalServerPort
	private int port;

	private Http http() {
		return new Http(this.port);
	}

	@Test
	void anyoneReadsOnlyOpsSwitches() {
		assertThat(http().send("/actuator/threadmodel").statusCode()).isEqualTo(200);
		Map<String, String> body = Map.of("model", "virtual");
		assertThat(http().postThreadModel(body).statusCode()).isEqualTo(401);
		assertThat(http().withBasicAuth("viewer", "secret").postThreadModel(body).statusCode()).isEqualTo(403);
		assertThat(http().get("/thread")).startsWith("request-platform-");
		var switched = http().withBasicAuth("ops", "secret").postThreadModel(body);
		assertThat(switched.statusCode()).isEqualTo(200);
		assertThat(switched.body()).contains("\"requestedBy\":\"actuator (ops)\"");
		assertThat(http().get("/thread")).startsWith("request-virtual-");
	}

	/**
	 * Matches the endpoint by its path rather than with Spring Boot's
	 * {@code EndpointRequest}, whose package differs between Boot 3.5 and 4. Boot 3.5's
	 * WebSocket auto-configuration would set Tomcat's WebSocket support up on Jetty too
	 * (the test class path holds every server); Boot 4 has no such auto-configuration.
	 */
	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration(
			excludeName = "org.springframework.boot.autoconfigure.websocket.servlet.WebSocketServletAutoConfiguration")
	@EnableWebSecurity
	@Import({ ThreadController.class, TestServers.TomcatApp.class })
	static class SecuredApp {

		@Bean
		SecurityFilterChain threadModelSecurity(HttpSecurity http) throws Exception {
			http.securityMatcher("/actuator/threadmodel")
				.authorizeHttpRequests((requests) -> requests.requestMatchers(HttpMethod.POST)
					.hasRole("OPS")
					.anyRequest()
					.permitAll())
				.httpBasic(Customizer.withDefaults())
				.csrf((csrf) -> csrf.disable());
			return http.build();
		}

		@Bean
		SecurityFilterChain application(HttpSecurity http) throws Exception {
			http.authorizeHttpRequests((requests) -> requests.anyRequest().permitAll());
			return http.build();
		}

		@Bean
		UserDetailsService users() {
			return new InMemoryUserDetailsManager(
					User.withUsername("ops").password("{noop}secret").roles("OPS").build(),
					User.withUsername("viewer").password("{noop}secret").roles("VIEWER").build());
		}

	}

}
