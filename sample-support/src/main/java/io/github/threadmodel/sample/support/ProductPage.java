package io.github.threadmodel.sample.support;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The page of {@code /products/{id}}: what each of the four simulated back ends returns, and the page built from
 * their answers. How the calls are made (threads or non-blocking delays) is each sample's business.
 */
public final class ProductPage {

	private ProductPage() {
	}

	/** One back-end call: its name, how long it took, the thread it finished on, and what it returned. */
	public record Call(String name, long millis, String thread, Object data) {
	}

	public static NotFoundException notFound(long id) {
		return new NotFoundException("product " + id + " not found");
	}

	public static Object product(long id) {
		return Map.of("id", id, "name", "Product " + id, "price", price(id, 1.0));
	}

	public static Object inventory(long id) {
		return Map.of("inStock", id % 7 != 0, "quantity", (id * 37) % 120);
	}

	public static Object recommendations(long id) {
		return List.of(id + 1, id + 2, id + 3);
	}

	public static Object competitorPrices(long id) {
		return List.of(Map.of("store", "A", "price", price(id, 0.95)), Map.of("store", "B", "price", price(id, 1.08)));
	}

	/** The page: each call's data under its own key, then every call's time and thread under "calls". */
	public static Map<String, Object> of(long id, Call database, Call inventory, Call recommendations,
			Call competitorPrices) {
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("id", id);
		body.put("product", database.data());
		body.put("inventory", inventory.data());
		body.put("recommendations", recommendations.data());
		body.put("competitorPrices", competitorPrices.data());
		Map<String, Object> calls = new LinkedHashMap<>();
		for (Call call : List.of(database, inventory, recommendations, competitorPrices)) {
			calls.put(call.name(), Map.of("ms", call.millis(), "thread", call.thread()));
		}
		body.put("calls", calls);
		return body;
	}

	private static BigDecimal price(long id, double factor) {
		return BigDecimal.valueOf((10 + (id * 13) % 90) * factor + 0.99).setScale(2, RoundingMode.HALF_UP);
	}

}
