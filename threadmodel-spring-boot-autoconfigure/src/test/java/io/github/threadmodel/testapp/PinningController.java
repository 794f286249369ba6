package io.github.threadmodel.testapp;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code /pinning/class-init} initializes a fresh copy of {@link SlowClassInit}, whose
 * static initializer blocks: on a virtual thread, every request pins at
 * {@code SlowClassInit.<clinit>}. {@code /pinning/class-loading} has the JVM load a class
 * for {@link NeedsAClass} through a class loader that blocks: it pins at
 * {@code NeedsAClass.run} on every JDK. {@code /pinning/synchronized} blocks inside
 * {@code synchronized} ({@link SlowSynchronized}): it pins at {@code SlowSynchronized.run}
 * on JDK 21 to 23, not since JDK 24. Each answers with the name of the thread that served
 * it.
 */
@RestController
public class PinningController {

	@GetMapping("/pinning/class-init")
	public String classInit() {
		FreshClassCopy.initialize(SlowClassInit.class);
		return Thread.currentThread().getName();
	}

	@GetMapping("/pinning/class-loading")
	public String classLoading() {
		FreshClassCopy.runLoadingSlowly(NeedsAClass.class, NeedsAClass.NeededClass.class, SlowClassInit.BLOCK_MS);
		return Thread.currentThread().getName();
	}

	@GetMapping("/pinning/synchronized")
	public String synchronizedBlock() {
		return SlowSynchronized.run();
	}

}
