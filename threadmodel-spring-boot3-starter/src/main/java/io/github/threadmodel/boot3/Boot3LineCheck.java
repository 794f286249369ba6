package io.github.threadmodel.boot3;

import io.github.threadmodel.internal.line.SpringBootLine;
import io.github.threadmodel.internal.line.SpringBootLineCheck;

/**
 * Stops startup with a clear message when this starter ({@code threadmodel-spring-boot3-starter})
 * runs on Spring Boot 4.
 */
final class Boot3LineCheck extends SpringBootLineCheck {

	public Boot3LineCheck() {
		super(SpringBootLine.BOOT_3);
	}

}
