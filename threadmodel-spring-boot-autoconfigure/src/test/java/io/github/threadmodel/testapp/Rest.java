package io.github.threadmodel.testapp;

import java.net.http.HttpClient;

import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpEntity;
import org.springframework.http.HttpMethod;
import org.springframework.http.ResponseEntity;
import org.springframework.http.client.ClientHttpResponse;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.http.client.support.BasicAuthenticationInterceptor;
import org.springframework.web.client.ResponseErrorHandler;
import org.springframework.web.client.RestTemplate;
import org.springframework.web.util.DefaultUriBuilderFactory;

/**
 * Requests to the test application on its port, answering every status as it comes
 * (as Spring Boot's {@code TestRestTemplate} does; that one moved to a module of its own
 * in Boot 4, this one is Spring Framework's {@link RestTemplate}, the same on both
 * lines). Each instance has its own connections: a server may serve the next request of
 * a kept-alive connection in the task that served the previous one, on the model that
 * task started on.
 */
public final class Rest {

	private final int port;

	private final RestTemplate template;

	public Rest(int port) {
		this(port, null);
	}

	private Rest(int port, BasicAuthenticationInterceptor authentication) {
		this.port = port;
		this.template = new RestTemplate(new JdkClientHttpRequestFactory(HttpClient.newHttpClient()));
		this.template.setUriTemplateHandler(new DefaultUriBuilderFactory("http://localhost:" + port));
		this.template.setErrorHandler(new AnswerEveryStatus());
		if (authentication != null) {
			this.template.getInterceptors().add(authentication);
		}
	}

	public Rest withBasicAuth(String user, String password) {
		return new Rest(this.port, new BasicAuthenticationInterceptor(user, password));
	}

	public <T> T getForObject(String path, Class<T> type) {
		return this.template.getForObject(path, type);
	}

	public <T> ResponseEntity<T> getForEntity(String path, Class<T> type) {
		return this.template.getForEntity(path, type);
	}

	public <T> ResponseEntity<T> postForEntity(String path, Object body, Class<T> type) {
		return this.template.postForEntity(path, body, type);
	}

	public <T> ResponseEntity<T> exchange(String path, HttpMethod method, HttpEntity<?> entity,
			ParameterizedTypeReference<T> type) {
		return this.template.exchange(path, method, entity, type);
	}

	private static final class AnswerEveryStatus implements ResponseErrorHandler {

		@Override
		public boolean hasError(ClientHttpResponse response) {
			return false;
		}

	}

}
