package io.github.threadmodel.sample.support;

import java.time.LocalDateTime;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How a user is kept in Redis, by both samples: one hash per user, {@code users:<id>}, with the fields name,
 * email, createdAt and updatedAt.
 */
public final class UserHash {

	private UserHash() {
	}

	public static String key(long id) {
		return "users:" + id;
	}

	public static Map<String, String> fields(UserView user) {
		Map<String, String> fields = new LinkedHashMap<>();
		fields.put("name", user.name());
		fields.put("email", user.email());
		fields.put("createdAt", user.createdAt().toString());
		fields.put("updatedAt", user.updatedAt().toString());
		return fields;
	}

	/** The user {@code id} from the fields of its hash, which must not be empty. */
	public static UserView user(long id, Map<?, ?> fields) {
		return new UserView(id, (String) fields.get("name"), (String) fields.get("email"),
				LocalDateTime.parse((String) fields.get("createdAt")),
				LocalDateTime.parse((String) fields.get("updatedAt")));
	}

}
