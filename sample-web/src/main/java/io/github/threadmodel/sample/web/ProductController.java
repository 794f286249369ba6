package io.github.threadmodel.sample.web;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

import io.github.threadmodel.sample.support.ProductPage;
import io.github.threadmodel.sample.support.ProductPage.Call;
import io.github.threadmodel.sample.support.SampleProperties;

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
			throw ProductPage.notFound(id);
		}
		CompletableFuture<Call> database = call("database", this.backends.database(), () -> ProductPage.product(id));
		CompletableFuture<Call> inventory = call("inventory", this.backends.inventory(),
				() -> ProductPage.inventory(id));
		CompletableFuture<Call> recommendations = call("recommendations", this.backends.recommendations(),
				() -> ProductPage.recommendations(id));
		CompletableFuture<Call> competitorPrices = call("competitorPrices", this.backends.competitorPrices(),
				() -> ProductPage.competitorPrices(id));
		try {
			CompletableFuture.allOf(database, inventory, recommendations, competitorPrices).get();
			return ProductPage.of(id, database.get(), inventory.get(), recommendations.get(), competitorPrices.get());
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

	static {
		// Touch ThreadLocalRandom early so that the first request does not pay for its seeding.
		ThreadLocalRandom.current().nextInt();
	}

}
