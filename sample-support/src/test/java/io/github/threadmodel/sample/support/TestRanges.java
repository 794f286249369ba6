package io.github.threadmodel.sample.support;

/** Shorter simulated back ends for the tests: every call takes 100 to 200 ms. */
public final class TestRanges {

	public static final String DATABASE_MIN = "sample.products.database.min=100ms";

	public static final String DATABASE_MAX = "sample.products.database.max=200ms";

	public static final String INVENTORY_MIN = "sample.products.inventory.min=100ms";

	public static final String INVENTORY_MAX = "sample.products.inventory.max=200ms";

	public static final String RECOMMENDATIONS_MIN = "sample.products.recommendations.min=100ms";

	public static final String RECOMMENDATIONS_MAX = "sample.products.recommendations.max=200ms";

	public static final String PRICES_MIN = "sample.products.competitor-prices.min=100ms";

	public static final String PRICES_MAX = "sample.products.competitor-prices.max=200ms";

	private TestRanges() {
	}

}
