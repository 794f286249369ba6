package io.github.threadmodel.sample.reactive;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "app.threads.model=platform", EndpointsTestSupport.TEST_PROPERTIES_GREETINGS,
				TestRanges.DATABASE_MIN, TestRanges.DATABASE_MAX, TestRanges.INVENTORY_MIN, TestRanges.INVENTORY_MAX,
				TestRanges.RECOMMENDATIONS_MIN, TestRanges.RECOMMENDATIONS_MAX, TestRanges.PRICES_MIN,
				TestRanges.PRICES_MAX })
class PlatformModelTest extends EndpointsTestSupport {

	@Override
	String model() {
		return "platform";
	}

}
