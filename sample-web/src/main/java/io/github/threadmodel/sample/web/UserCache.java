package io.github.threadmodel.sample.web;

import java.util.Optional;

import io.github.threadmodel.sample.support.UserView;

/** Users by id: Redis with the {@code redis} profile, a map in memory otherwise. */
public interface UserCache {

	Optional<UserView> get(long id);

	void put(UserView user);

}
