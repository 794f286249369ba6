package io.github.threadmodel.sample.web;

import java.time.LocalDateTime;

import io.github.threadmodel.sample.support.UserView;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A row of the {@code users} table (created by schema.sql). */
@Entity
@Table(name = "users")
public class User {

	@Id
	private Long id;

	@Column(nullable = false)
	private String name;

	@Column(nullable = false)
	private String email;

	@Column(name = "created_at", nullable = false)
	private LocalDateTime createdAt;

	@Column(name = "updated_at", nullable = false)
	private LocalDateTime updatedAt;

	protected User() {
	}

	public User(Long id, String name, String email, LocalDateTime createdAt, LocalDateTime updatedAt) {
		this.id = id;
		this.name = name;
		this.email = email;
		this.createdAt = createdAt;
		this.updatedAt = updatedAt;
	}

	static User of(UserView view) {
		return new User(view.id(), view.name(), view.email(), view.createdAt(), view.updatedAt());
	}

	public Long getId() {
		return this.id;
	}

	public String getName() {
		return this.name;
	}

	public String getEmail() {
		return this.email;
	}

	public LocalDateTime getCreatedAt() {
		return this.createdAt;
	}

	public LocalDateTime getUpdatedAt() {
		return this.updatedAt;
	}

	UserView toView() {
		return new UserView(this.id, this.name, this.email, this.createdAt, this.updatedAt);
	}

}
