package io.github.threadmodel.sample.web;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.core.task.AsyncTaskExecutor;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * A product page assembled from four slow back ends called in parallel on {@code applicationTaskExecutor}, the
 * starter's executor for the thread model in force: its latency is that of the slowest call.
 */
@RestController
public class ProductController {

	private final SampleProperties.Products backends;

	private final AsyncTaskExecutor executor;

	public ProductController(SampleProperties properties,
			@Qualifier("applicationTaskExecutor") AsyncTaskExecutor executor) {
		this.backends = properties.products();
		this.executor = executor;
	}

	@GetMapping(path = "/products/{id}", produces = MediaType.APPLICATION_JSON_VALUE)
	public Map<String, Object> product(@PathVariable long id) throws InterruptedException {
		if (id < 1) {
			throw new NotFoundException("product " + id + " not found");
		}
		CompletableFuture<Call> database = call("database", this.backends.database(),
				() -> Map.of("id", id, "name", "Product " + id, "price", price(id, 1.0)));
		CompletableFuture<Call> inventory = call("inventory", this.backends.inventory(),
				() -> Map.of("inStock", id % 7 != 0, "quantity", (id * 37) % 120));
		CompletableFuture<Call> recommendations = call("recommendations", this.backends.recommendations(),
				() -> List.of(id + 1, id + 2, id + 3));
		CompletableFuture<Call> competitorPrices = call("competitorPrices", this.backends.competitorPrices(),
				() -> List.of(Map.of("store", "A", "price", price(id, 0.95)),
						Map.of("store", "B", "price", price(id, 1.08))));
		try {
			CompletableFuture.allOf(database, inventory, recommendations, competitorPrices).get();
			Map<String, Object> body = new LinkedHashMap<>();
			body.put("id", id);
			body.put("product", database.get().data());
			body.put("inventory", inventory.get().data());
			body.put("recommendations", recommendations.get().data());
			body.put("competitorPrices", competitorPrices.get().data());
			Map<String, Object> calls = new LinkedHashMap<>();
			for (CompletableFuture<Call> call : List.of(database, inventory, recommendations, competitorPrices)) {
				Call done = call.get();
				calls.put(done.name(), Map.of("ms", done.millis(), "thread", done.thread()));
			}
			body.put("calls", calls);
			return body;
		}
		catch (ExecutionException ex) {
			throw (ex.getCause() instanceof RuntimeException runtime) ? runtime : new CompletionException(ex);
		}
	}

	private CompletableFuture<Call> call(String name, SampleProperties.Range latency, Supplier<Object> data) {
		return CompletableFuture.supplyAsync(() -> {
			long millis = latency.pickMillis();
			try {
				Thread.sleep(millis);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new CompletionException(ex);
			}
			return new Call(name, millis, Thread.currentThread().getName(), data.get());
		}, this.executor);
	}

	private static BigDecimal price(long id, double factor) {
		return BigDecimal.valueOf((10 + (id * 13) % 90) * factor + 0.99).setScale(2, RoundingMode.HALF_UP);
	}

	record Call(String name, long millis, String thread, Object data) {
	}

	static {
		// Touch ThreadLocalRandom early so that the first request does not pay for its seeding.
		ThreadLocalRandom.current().nextInt();
	}

}
