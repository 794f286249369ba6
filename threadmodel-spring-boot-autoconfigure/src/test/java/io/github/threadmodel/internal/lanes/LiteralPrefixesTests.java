package io.github.threadmodel.internal.lanes;

import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.http.server.PathContainer;
import org.springframework.http.server.RequestPath;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The literal starts never turn away a path that a lane's pattern matches, and turn away
 * the paths that start elsewhere without parsing them.
 */
class LiteralPrefixesTests {

	private static final List<String> PATTERNS = List.of("/owners/**", "/lanes/cpu", "/files/report-*.pdf",
			"/users/{id}/export");

	private final LiteralPrefixes prefixes = LiteralPrefixes.of(PATTERNS);

	@Test
	void eachStartEndsBeforeTheSegmentOfTheFirstWildcard() {
		assertThat(PATTERNS.stream().map(LiteralPrefixes::prefix)).containsExactly("/owners", "/lanes", "/files",
				"/users");
		assertThat(LiteralPrefixes.prefix("/**")).isEmpty();
		assertThat(LiteralPrefixes.prefix("/{*path}")).isEmpty();
	}

	@Test
	void everyPathAPatternMatchesMayMatch() {
		List<String> matched = List.of("/owners", "/owners/", "/owners/1/pets", "/lanes/cpu", "/files/report-1.pdf",
				"/users/7/export", "/lanes;v=1/cpu", "/l%61nes/cpu");
		for (String uri : matched) {
			assertThat(anyPatternMatches(uri, "")).as(uri).isTrue();
			assertThat(this.prefixes.mayMatch(uri, "")).as(uri).isTrue();
			assertThat(this.prefixes.mayMatch("/app" + uri, "/app")).as(uri).isTrue();
		}
	}

	@Test
	void pathsThatStartElsewhereAreTurnedAway() {
		for (String uri : List.of("/ping", "/", "/vets.html", "/lane/cpu")) {
			assertThat(anyPatternMatches(uri, "")).as(uri).isFalse();
			assertThat(this.prefixes.mayMatch(uri, "")).as(uri).isFalse();
		}
		assertThat(this.prefixes.mayMatch("/app/ping", "/app")).isFalse();
	}

	@Test
	void noPatternsTurnEveryPathAwayAndAnyTurnsNone() {
		assertThat(LiteralPrefixes.of(List.of()).mayMatch("/owners", "")).isFalse();
		assertThat(LiteralPrefixes.ANY.mayMatch("/ping", "")).isTrue();
	}

	private static boolean anyPatternMatches(String uri, String contextPath) {
		PathContainer path = RequestPath.parse(uri, contextPath).pathWithinApplication();
		return PATTERNS.stream().map(PathPatternParser.defaultInstance::parse).anyMatch((PathPattern p) -> p.matches(path));
	}

}
