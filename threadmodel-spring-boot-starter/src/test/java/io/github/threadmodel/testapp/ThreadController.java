package io.github.threadmodel.testapp;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import reactor.core.publisher.Mono;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Tells which thread served a request; {@code /block} holds the thread until the test
 * opens the gate.
 */
@RestController
public class ThreadController {

	private volatile CountDownLatch gate = new CountDownLatch(1);

	@GetMapping("/thread")
	public String thread() {
		return describe(Thread.currentThread());
	}

	@GetMapping("/thread/reactive")
	public Mono<String> reactiveThread() {
		return Mono.fromSupplier(() -> describe(Thread.currentThread()));
	}

	@GetMapping("/block")
	public String block() throws InterruptedException {
		return this.gate.await(30, TimeUnit.SECONDS) ? "released" : "timed out";
	}

	public void openGate() {
		this.gate.countDown();
	}

	public void closeGate() {
		this.gate = new CountDownLatch(1);
	}

	private static String describe(Thread thread) {
		return thread.getName() + " virtual=" + thread.isVirtual();
	}

}
