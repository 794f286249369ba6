package io.github.threadmodel.sample.support;

import com.fasterxml.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/** Checks on a user as {@code /users/{id}} and {@code /users/{id}/cache} answer it. */
public final class UserAssertions {

	private UserAssertions() {
	}

	public static void assertUser(JsonNode user, long id, String name, String email) {
		assertThat(user.path("id").asLong()).isEqualTo(id);
		assertThat(user.path("name").asText()).isEqualTo(name);
		assertThat(user.path("email").asText()).isEqualTo(email);
		assertThat(user.path("createdAt").asText()).matches("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}.*");
		assertThat(user.path("updatedAt").asText()).matches("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}.*");
	}

}
