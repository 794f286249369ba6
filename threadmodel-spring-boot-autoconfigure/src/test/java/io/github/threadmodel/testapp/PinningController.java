package io.github.threadmodel.testapp;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code /pinning/class-init} initializes a fresh copy of {@link SlowClassInit}, whose
 * static initializer blocks: on a virtual thread, every request pins at
 * {@code SlowClassInit.<clinit>}. Answers with the name of the thread that served it.
 */
@RestController
public class PinningController {

	@GetMapping("/pinning/class-init")
	public String classInit() {
		FreshClassCopy.initialize(SlowClassInit.class);
		return Thread.currentThread().getName();
	}

}
