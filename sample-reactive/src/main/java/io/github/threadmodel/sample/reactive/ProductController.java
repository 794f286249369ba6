package io.github.threadmodel.sample.reactive;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

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
			return Mono.error(new NotFoundException("product " + id + " not found"));
		}
		Mono<Call> database = call("database", this.backends.database(),
				() -> Map.of("id", id, "name", "Product " + id, "price", price(id, 1.0)));
		Mono<Call> inventory = call("inventory", this.backends.inventory(),
				() -> Map.of("inStock", id % 7 != 0, "quantity", (id * 37) % 120));
		Mono<Call> recommendations = call("recommendations", this.backends.recommendations(),
				() -> List.of(id + 1, id + 2, id + 3));
		Mono<Call> competitorPrices = call("competitorPrices", this.backends.competitorPrices(),
				() -> List.of(Map.of("store", "A", "price", price(id, 0.95)),
						Map.of("store", "B", "price", price(id, 1.08))));
		return Mono.zip(database, inventory, recommendations, competitorPrices).map((all) -> {
			Map<String, Object> body = new LinkedHashMap<>();
			body.put("id", id);
			body.put("product", all.getT1().data());
			body.put("inventory", all.getT2().data());
			body.put("recommendations", all.getT3().data());
			body.put("competitorPrices", all.getT4().data());
			Map<String, Object> calls = new LinkedHashMap<>();
			for (Call call : List.of(all.getT1(), all.getT2(), all.getT3(), all.getT4())) {
				calls.put(call.name(), Map.of("ms", call.millis(), "thread", call.thread()));
			}
			body.put("calls", calls);
			return body;
		});
	}

	private Mono<Call> call(String name, SampleProperties.Range latency, Supplier<Object> data) {
		return Mono.defer(() -> {
			long millis = latency.pickMillis();
			return Mono.delay(Duration.ofMillis(millis))
				.map((tick) -> new Call(name, millis, Thread.currentThread().getName(), data.get()));
		});
	}

	private static BigDecimal price(long id, double factor) {
		return BigDecimal.valueOf((10 + (id * 13) % 90) * factor + 0.99).setScale(2, RoundingMode.HALF_UP);
	}

	record Call(String name, long millis, String thread, Object data) {
	}

}
