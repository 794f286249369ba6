package io.github.threadmodel.sample.web;

import io.github.threadmodel.sample.support.UserView;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/** Users from the database (JPA) and from the cache. */
@RestController
public class UserController {

	private final UserService users;

	public UserController(UserService users) {
		this.users = users;
	}

	@GetMapping(path = "/users/{id}", produces = MediaType.APPLICATION_JSON_VALUE)
	public UserView user(@PathVariable long id) {
		return this.users.fromDatabase(id);
	}

	@GetMapping(path = "/users/{id}/cache", produces = MediaType.APPLICATION_JSON_VALUE)
	public UserView cachedUser(@PathVariable long id) {
		return this.users.fromCache(id);
	}

}
