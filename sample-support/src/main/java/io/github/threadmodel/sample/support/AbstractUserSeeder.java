package io.github.threadmodel.sample.support;

import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.SmartInitializingSingleton;

/**
 * At startup, before the web server takes its first request (once every singleton exists, before the context's
 * life cycle starts the server): makes sure the seed users exist ({@link SeedUsers}; the table itself comes from
 * schema.sql), then puts user 1 in the cache. So the sample answers health checks only once it can serve every user;
 * as an {@code ApplicationRunner} it would seed after the server started. A cache that is down at startup is logged,
 * not fatal: {@code /users/1/cache} fills it later. Each sample's subclass does both steps with its own (blocking or
 * reactive) repository and cache.
 */
public abstract class AbstractUserSeeder implements SmartInitializingSingleton {

	private final Logger logger = LoggerFactory.getLogger(getClass());

	@Override
	public final void afterSingletonsInstantiated() {
		List<UserView> seed = SeedUsers.createdNow();
		insertMissing(seed);
		try {
			putUserOneInTheCache();
			this.logger.info("Seeded {} users; user 1 is in the cache", seed.size());
		}
		catch (RuntimeException ex) {
			this.logger.warn("Seeded {} users; could not put user 1 in the cache ({}): /users/1/cache will fill it",
					seed.size(), ex.toString());
		}
	}

	/**
	 * Inserts those of {@code users} that are not in the table yet. One that another instance sharing the database
	 * inserted meanwhile is not an error.
	 */
	protected abstract void insertMissing(List<UserView> users);

	/** Reads user 1 from the database and puts it in the cache; throws if either fails. */
	protected abstract void putUserOneInTheCache();

}
