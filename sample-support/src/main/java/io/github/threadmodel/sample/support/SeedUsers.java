package io.github.threadmodel.sample.support;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/** The users that both samples make sure exist at startup: ids 1 to 5, user 1 being greg / greg@gmail.com. */
public final class SeedUsers {

	private static final List<String[]> NAMES_AND_EMAILS = List.of(new String[] { "greg", "greg@gmail.com" },
			new String[] { "ana", "ana@example.com" }, new String[] { "bruno", "bruno@example.com" },
			new String[] { "carla", "carla@example.com" }, new String[] { "diego", "diego@example.com" });

	private SeedUsers() {
	}

	/** The seed users, created and updated now (UTC, to the millisecond). */
	public static List<UserView> createdNow() {
		LocalDateTime now = LocalDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MILLIS);
		List<UserView> users = new ArrayList<>();
		for (int i = 0; i < NAMES_AND_EMAILS.size(); i++) {
			users.add(new UserView(i + 1, NAMES_AND_EMAILS.get(i)[0], NAMES_AND_EMAILS.get(i)[1], now, now));
		}
		return users;
	}

}
