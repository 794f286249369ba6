package io.github.threadmodel.internal.requests;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

import io.github.threadmodel.executor.Refusal;

/**
 * The HTTP requests of the application's web server, counted by {@link RequestCountingFilter}
 * (servlet) or {@link RequestCountingDecorator} (WebFlux), and the 503 answers the
 * starter wrote to requests the request executor refused under overload.
 */
public final class RequestCounts {

	private final LongAdder received = new LongAdder();

	private final LongAdder completed = new LongAdder();

	private final LongAdder bypassed = new LongAdder();

	private final Map<Refusal, LongAdder> rejected = new EnumMap<>(Refusal.class);

	public RequestCounts() {
		for (Refusal refusal : Refusal.values()) {
			this.rejected.put(refusal, new LongAdder());
		}
	}

	/**
	 * Counts a request that reached the application.
	 */
	public void onReceived() {
		this.received.increment();
	}

	/**
	 * Counts a request the application finished: answered, or given up by its client.
	 */
	public void onCompleted() {
		this.completed.increment();
	}

	/**
	 * Counts a 503 answer written to a request refused under overload.
	 * @param refusal why it was refused
	 */
	public void onRejected(Refusal refusal) {
		this.rejected.get(refusal).increment();
	}

	/**
	 * Counts a health probe that ran at once, outside the limits, where it would otherwise
	 * have waited for a turn or been refused.
	 */
	public void onBypassed() {
		this.bypassed.increment();
	}

	/**
	 * Health probes that ran at once, outside the limits, where they would otherwise have
	 * waited for a turn or been refused.
	 * @return the count
	 */
	public long bypassed() {
		return this.bypassed.sum();
	}

	/**
	 * Requests that reached the application so far.
	 * @return the count
	 */
	public long received() {
		return this.received.sum();
	}

	/**
	 * Requests the application finished so far, the 503 answers among them.
	 * @return the count
	 */
	public long completed() {
		return this.completed.sum();
	}

	/**
	 * 503 answers written to requests refused under overload, whatever the reason.
	 * @return the count
	 */
	public long rejected() {
		return this.rejected.values().stream().mapToLong(LongAdder::sum).sum();
	}

	/**
	 * 503 answers written to requests refused for one reason.
	 * @param refusal the reason
	 * @return the count
	 */
	public long rejected(Refusal refusal) {
		return this.rejected.get(refusal).sum();
	}

}
