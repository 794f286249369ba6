package io.github.threadmodel.autoconfigure;

import java.net.http.HttpResponse;
import java.util.Map;

import io.github.threadmodel.testapp.Http;
import io.github.threadmodel.testapp.TestServers;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A switch that names a field the endpoint does not take is answered 400 with the field's
 * name and changes nothing, on each server (Spring MVC and WebFlux); the known fields still
 * switch.
 */
class UnknownSwitchFieldsTests {

	@ParameterizedTest(name = "{0}")
	@EnumSource(TestServers.class)
	void aSwitchWithAnUnknownFieldIsRefusedAndNamesIt(TestServers server) {
		try (ConfigurableApplicationContext context = server.start("app.threads.model=platform",
				"management.endpoint.threadmodel.access=unrestricted")) {
			Http http = new Http(context);
			HttpResponse<String> route = http.postThreadModel(Map.of("route", "/checkout", "model", "virtual"));
			assertThat(route.statusCode()).as(route.body()).isEqualTo(400);
			assertThat(route.body()).contains("Unknown field 'route' in a thread model switch; allowed fields: model, "
					+ "maxThreads, maxConcurrency, lane");
			HttpResponse<String> lane = http.postThreadModel(Map.of("lane", "checkout", "model", "virtual"));
			assertThat(lane.statusCode()).as(lane.body()).isEqualTo(400);
			assertThat(lane.body()).contains("No lane 'checkout'; lanes: none (app.threads.lanes.<name>)");
			HttpResponse<String> misspelt = http.postThreadModel(Map.of("modle", "virtual", "maxthreads", 8));
			assertThat(misspelt.statusCode()).isEqualTo(400);
			assertThat(misspelt.body()).contains("Unknown fields 'maxthreads', 'modle'");
			assertThat(http.threadModel()).containsEntry("model", "platform");
			HttpResponse<String> known = http.postThreadModel(Map.of("model", "virtual", "maxConcurrency", 20));
			assertThat(known.statusCode()).as(known.body()).isEqualTo(200);
			assertThat(http.threadModel()).containsEntry("model", "virtual");
		}
	}

}
