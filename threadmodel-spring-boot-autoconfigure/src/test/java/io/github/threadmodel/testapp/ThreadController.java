package io.github.threadmodel.testapp;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import reactor.core.publisher.Mono;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Tells which thread served a request; {@code /block} holds the thread until the test
 * opens the gate.
 */
@RestController
public class ThreadController {

	private volatile CountDownLatch gate = new CountDownLatch(1);

	private final Map<String, Integer> served = new ConcurrentHashMap<>();

	private final AtomicInteger blocked = new AtomicInteger();

	private final AtomicInteger spinning = new AtomicInteger();

	@GetMapping("/thread")
	public String thread() {
		return describe(Thread.currentThread());
	}

	@GetMapping("/thread/reactive")
	public Mono<String> reactiveThread() {
		return Mono.fromSupplier(() -> describe(Thread.currentThread()));
	}

	/**
	 * Answers with the request's id after {@code sleepMs} of work, and counts how often each
	 * id was served. With {@code gated}, the work starts once the test opens the gate.
	 */
	@GetMapping("/echo")
	public String echo(@RequestParam String id, @RequestParam(defaultValue = "0") long sleepMs,
			@RequestParam(defaultValue = "false") boolean gated) throws InterruptedException {
		if (gated) {
			this.gate.await(30, TimeUnit.SECONDS);
		}
		Thread.sleep(sleepMs); // the request's work: a slow request, not a wait of the test
		this.served.merge(id, 1, Integer::sum);
		return id;
	}

	/**
	 * Keeps the thread busy computing for {@code ms} milliseconds of wall-clock time, or,
	 * with {@code gated}, until the test opens the gate (a virtual thread spinning so keeps
	 * its carrier: virtual threads are not time-sliced).
	 */
	@GetMapping("/spin")
	public String spin(@RequestParam(defaultValue = "0") long ms, @RequestParam(defaultValue = "false") boolean gated) {
		long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
		long iterations = 0;
		this.spinning.incrementAndGet();
		try {
			while (gated ? this.gate.getCount() > 0 : System.nanoTime() < end) {
				iterations++;
			}
		}
		finally {
			this.spinning.decrementAndGet();
		}
		return String.valueOf(iterations);
	}

	/**
	 * Requests computing in {@code /spin} now.
	 * @return the count
	 */
	public int spinning() {
		return this.spinning.get();
	}

	/**
	 * Holds {@code kb} KB of heap for {@code ms} milliseconds, allocated in eight parts
	 * spread over that time, as a traced request with a big body; answers the bytes held.
	 */
	@GetMapping("/hold")
	public String hold(@RequestParam int kb, @RequestParam long ms) throws InterruptedException {
		byte[][] held = new byte[8][];
		for (int i = 0; i < held.length; i++) {
			held[i] = new byte[kb * 1024 / held.length];
			Thread.sleep(ms / held.length);
		}
		long bytes = 0;
		for (byte[] part : held) {
			bytes += part.length;
		}
		return String.valueOf(bytes);
	}

	public Map<String, Integer> served() {
		return this.served;
	}

	@GetMapping("/block")
	public String block() throws InterruptedException {
		this.blocked.incrementAndGet();
		try {
			return this.gate.await(30, TimeUnit.SECONDS) ? "released" : "timed out";
		}
		finally {
			this.blocked.decrementAndGet();
		}
	}

	/**
	 * Requests waiting in {@code /block} now.
	 * @return the count
	 */
	public int blocked() {
		return this.blocked.get();
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
