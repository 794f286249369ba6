package io.github.threadmodel.sample.reactive;

import java.time.Duration;
import java.util.Map;
import java.util.function.Supplier;

import io.github.threadmodel.sample.support.ProductPage;
import io.github.threadmodel.sample.support.ProductPage.Call;
import io.github.threadmodel.sample.support.SampleProperties;
import reactor.core.publisher.Mono;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * A product page composed from four slow back ends, subscribed to together ({@code Mono.zip}) and each simulated
 * by a non-blocking delay: its latency is that of the slowest call, and no thread waits meanwhile.
 */
@RestController
public class ProductController {

	private final SampleProperties.Products backends;

	public ProductController(SampleProperties properties) {
		this.backends = properties.products();
	}

	@GetMapping(path = "/products/{id}", produces = MediaType.APPLICATION_JSON_VALUE)
	public Mono<Map<String, Object>> product(@PathVariable long id) {
		if (id < 1) {
			return Mono.error(ProductPage.notFound(id));
		}
		Mono<Call> database = call("database", this.backends.database(), () -> ProductPage.product(id));
		Mono<Call> inventory = call("inventory", this.backends.inventory(), () -> ProductPage.inventory(id));
		Mono<Call> recommendations = call("recommendations", this.backends.recommendations(),
				() -> ProductPage.recommendations(id));
		Mono<Call> competitorPrices = call("competitorPrices", this.backends.competitorPrices(),
				() -> ProductPage.competitorPrices(id));
		return Mono.zip(database, inventory, recommendations, competitorPrices)
			.map((all) -> ProductPage.of(id, all.getT1(), all.getT2(), all.getT3(), all.getT4()));
	}

	private Mono<Call> call(String name, SampleProperties.Range latency, Supplier<Object> data) {
		return Mono.defer(() -> {
			long millis = latency.pickMillis();
			return Mono.delay(Duration.ofMillis(millis))
				.map((tick) -> new Call(name, millis, Thread.currentThread().getName(), data.get()));
		});
	}

}
