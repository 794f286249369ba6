package io.github.threadmodel.actuate;

import java.util.Map;

import io.github.threadmodel.testapp.ThreadController;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.actuate.autoconfigure.security.servlet.EndpointRequest;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.websocket.servlet.WebSocketServletAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.client.TestRestTemplate;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
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

	@Autowired
	private TestRestTemplate rest;

	@Test
	void anyoneReadsOnlyOpsSwitches() {
		assertThat(this.rest.getForEntity("/actuator/threadmodel", String.class).getStatusCode())
			.isEqualTo(HttpStatus.OK);
		Map<String, String> body = Map.of("model", "virtual");
		assertThat(this.rest.postForEntity("/actuator/threadmodel", body, String.class).getStatusCode())
			.isEqualTo(HttpStatus.UNAUTHORIZED);
		assertThat(this.rest.withBasicAuth("viewer", "secret")
			.postForEntity("/actuator/threadmodel", body, String.class)
			.getStatusCode()).isEqualTo(HttpStatus.FORBIDDEN);
		assertThat(this.rest.getForObject("/thread", String.class)).startsWith("request-platform-");
		var switched = this.rest.withBasicAuth("ops", "secret").postForEntity("/actuator/threadmodel", body,
				String.class);
		assertThat(switched.getStatusCode()).isEqualTo(HttpStatus.OK);
		assertThat(switched.getBody()).contains("\"requestedBy\":\"actuator (ops)\"");
		assertThat(this.rest.getForObject("/thread", String.class)).startsWith("request-virtual-");
	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration(exclude = WebSocketServletAutoConfiguration.class)
	@Import(ThreadController.class)
	static class SecuredApp {

		@Bean
		SecurityFilterChain threadModelSecurity(HttpSecurity http) throws Exception {
			http.securityMatcher(EndpointRequest.to(ThreadModelEndpoint.class))
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
