package io.github.threadmodel.sample.support;

import java.time.LocalDateTime;

/** What {@code /users/{id}} and {@code /users/{id}/cache} answer, and what the cache holds. */
public record UserView(long id, String name, String email, LocalDateTime createdAt, LocalDateTime updatedAt) {
}
