package io.github.threadmodel.sample.support;

import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/** What {@code /greetings?name=X} answers: a random word of Hello, Hi, Olá, Oi, Hallo, then {@code " X!"}. */
public final class Greeting {

	static final List<String> WORDS = List.of("Hello", "Hi", "Olá", "Oi", "Hallo");

	private Greeting() {
	}

	public static String randomFor(String name) {
		return WORDS.get(ThreadLocalRandom.current().nextInt(WORDS.size())) + " " + name + "!";
	}

}
