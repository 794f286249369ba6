package io.github.threadmodel.boot4;

import io.github.threadmodel.internal.line.SpringBootLine;
import io.github.threadmodel.internal.line.SpringBootLineCheck;

/**
 * Stops startup with a clear message when this starter ({@code threadmodel-spring-boot-starter})
 * runs on Spring Boot 3.5.
 */
final class Boot4LineCheck extends SpringBootLineCheck {

	public Boot4LineCheck() {
		super(SpringBootLine.BOOT_4);
	}

}
