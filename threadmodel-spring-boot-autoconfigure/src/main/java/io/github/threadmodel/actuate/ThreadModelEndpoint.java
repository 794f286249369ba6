package io.github.threadmodel.actuate;

import java.security.Principal;
import java.util.Locale;
import java.util.function.Supplier;

import io.github.threadmodel.executor.SwitchOutcome;
import io.github.threadmodel.executor.SwitchOutcome.Refused;
import io.github.threadmodel.executor.SwitchOutcome.Refused.Reason;
import io.github.threadmodel.executor.SwitchOutcome.Unchanged;
import io.github.threadmodel.executor.SwitchRequest;
import io.github.threadmodel.executor.SwitchSource;
import io.github.threadmodel.executor.ThreadModelChoice;
import io.github.threadmodel.executor.ThreadModelSwitcher;
import io.github.threadmodel.internal.actuate.ShownValue;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.lang.Nullable;

/**
 * {@code /actuator/threadmodel}: the thread model in force, what the executors are doing,
 * and how the application started; {@code POST} switches the model while the
 * application runs. Writes are off unless the endpoint's access is raised
 * ({@code management.endpoint.threadmodel.access=unrestricted}).
 * @since 0.1.0
 */
@Endpoint(id = "threadmodel", defaultAccess = Access.READ_ONLY)
public class ThreadModelEndpoint {

	private static final Log logger = LogFactory.getLog(ThreadModelEndpoint.class);

	/** The endpoint's id, {@code threadmodel}. */
	public static final EndpointId ID = EndpointId.of("threadmodel");

	private static final int STATUS_FORBIDDEN = 403;

	/** Who asks, in the switch history, for a switch by the endpoint. */
	private static final String ACTUATOR = "actuator";

	private final ThreadModelSwitcher switcher;

	private final Supplier<ThreadModelDescriptor> description;

	/**
	 * Creates the endpoint.
	 * @param switcher switches the model
	 * @param description what a read answers, read anew each time
	 */
	public ThreadModelEndpoint(ThreadModelSwitcher switcher, Supplier<ThreadModelDescriptor> description) {
		this.switcher = switcher;
		this.description = description;
	}

	@ReadOperation
	public ThreadModelDescriptor threadModel() {
		return this.description.get();
	}

	/**
	 * Switches the thread model: new requests run on the new model at once, requests
	 * waiting for a thread move to it, running requests finish where they are. Values are
	 * taken as text and checked here, so that every bad value gets a 400 whose body says
	 * what is wrong (Spring Boot's error pages leave exception messages out by default).
	 * @param model {@code platform} or {@code virtual}; or {@code auto} to let
	 * {@code app.threads.model=auto} decide again after a switch by hand paused it
	 * @param maxThreads the platform pool's new limit, or {@code null} to keep it
	 * @param maxConcurrency the new virtual concurrency limit, or {@code null} to keep it
	 * @param lane the lane to switch ({@code app.threads.lanes.<name>}), or {@code null} for
	 * the web server's requests
	 * @param securityContext who asks
	 * @return the endpoint's description after the switch; 400 for a bad value and 403
	 * when switching is disabled, each with an {@code error} saying why
	 */
	@WriteOperation
	public WebEndpointResponse<Object> switchModel(@Nullable String model, @Nullable String maxThreads,
			@Nullable String maxConcurrency, @Nullable String lane, SecurityContext securityContext) {
		SwitchRequest request;
		try {
			request = new SwitchRequest(parseModel(model), parseLimit("maxThreads", maxThreads),
					parseLimit("maxConcurrency", maxConcurrency), SwitchSource.ENDPOINT, requestedBy(securityContext),
					lane);
		}
		catch (IllegalArgumentException ex) {
			return refused(WebEndpointResponse.STATUS_BAD_REQUEST, ex.getMessage());
		}
		SwitchOutcome outcome = this.switcher.apply(request);
		if (outcome instanceof Refused refused) {
			return refused((refused.reason() == Reason.DISABLED) ? STATUS_FORBIDDEN
					: WebEndpointResponse.STATUS_BAD_REQUEST, refused.message());
		}
		if (outcome instanceof Unchanged unchanged && request.model() != ThreadModelChoice.AUTO) {
			logger.info("Thread model %sstays %s: it is in force with these limits already (asked by %s)"
				.formatted((lane != null) ? "of lane " + lane + " " : "", unchanged.model().id(), request.requestedBy()));
		}
		return new WebEndpointResponse<>(threadModel());
	}

	private static WebEndpointResponse<Object> refused(int status, String error) {
		return new WebEndpointResponse<>(new SwitchRefused(error), status);
	}

	private static ThreadModelChoice parseModel(String model) {
		for (ThreadModelChoice candidate : ThreadModelChoice.values()) {
			if (model != null && candidate.id().equals(model.trim().toLowerCase(Locale.ROOT))) {
				return candidate;
			}
		}
		throw new IllegalArgumentException(((model != null) ? "Unknown thread model '" + ShownValue.of(model) + "'"
				: "No thread model given") + "; allowed values: platform, virtual, auto");
	}

	private static Integer parseLimit(String name, String value) {
		if (value == null) {
			return null;
		}
		try {
			return Integer.valueOf(value.trim());
		}
		catch (NumberFormatException ex) {
			throw new IllegalArgumentException(
					name + " must be a whole number of 1 or more, not '" + ShownValue.of(value) + "'");
		}
	}

	private static String requestedBy(SecurityContext securityContext) {
		Principal principal = (securityContext != null) ? securityContext.getPrincipal() : null;
		return (principal != null) ? ACTUATOR + " (" + principal.getName() + ")" : ACTUATOR;
	}

	/**
	 * The body of a refused switch.
	 *
	 * @param error why the switch was refused
	 */
	public record SwitchRefused(String error) {

	}

}
