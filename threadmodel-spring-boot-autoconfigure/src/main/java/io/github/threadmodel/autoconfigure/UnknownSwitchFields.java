package io.github.threadmodel.autoconfigure;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import io.github.threadmodel.actuate.ThreadModelEndpoint;
import io.github.threadmodel.actuate.ThreadModelEndpoint.SwitchRefused;
import io.github.threadmodel.internal.actuate.ShownValue;

import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.InvocationContext;
import org.springframework.boot.actuate.endpoint.OperationType;
import org.springframework.boot.actuate.endpoint.invoke.OperationInvoker;
import org.springframework.boot.actuate.endpoint.invoke.OperationInvokerAdvisor;
import org.springframework.boot.actuate.endpoint.invoke.OperationParameter;
import org.springframework.boot.actuate.endpoint.invoke.OperationParameters;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;

/**
 * Answers a switch ({@code POST /actuator/threadmodel}) that names a field the operation
 * does not take with 400 and the field's name, and changes nothing. Spring Boot's web
 * endpoints bind a body's fields to the operation's parameters by name and ignore the
 * rest, so a misspelt field, or one of a later version ({@code {"lane":"x","model":"virtual"}}),
 * would switch the whole server without a word. An {@link OperationInvokerAdvisor}, Spring
 * Boot's own hook around an operation's invocation, so that it holds on every web stack
 * (Spring MVC, WebFlux, Jersey): the arguments it sees are the body's fields and the query's
 * parameters.
 */
final class UnknownSwitchFields implements OperationInvokerAdvisor {

	@Override
	public OperationInvoker apply(EndpointId endpointId, OperationType operationType, OperationParameters parameters,
			OperationInvoker invoker) {
		if (!ThreadModelEndpoint.ID.equals(endpointId) || operationType != OperationType.WRITE) {
			return invoker;
		}
		return (context) -> {
			Set<String> fields = fields(parameters, context);
			List<String> unknown = context.getArguments().keySet().stream().filter((name) -> !fields.contains(name))
				.sorted()
				.toList();
			if (unknown.isEmpty()) {
				return invoker.invoke(context);
			}
			return new WebEndpointResponse<>(new SwitchRefused(message(unknown, fields)),
					WebEndpointResponse.STATUS_BAD_REQUEST);
		};
	}

	/** The parameters bound by name; the others (the security context, ...) are resolved by type. */
	private static Set<String> fields(OperationParameters parameters, InvocationContext context) {
		return parameters.stream()
			.filter((parameter) -> !context.canResolve(parameter.getType()))
			.map(OperationParameter::getName)
			.collect(Collectors.toCollection(LinkedHashSet::new));
	}

	private static String message(List<String> unknown, Set<String> fields) {
		String names = unknown.stream()
			.map((name) -> "'" + ShownValue.of(name) + "'")
			.collect(Collectors.joining(", "));
		return ((unknown.size() == 1) ? "Unknown field " : "Unknown fields ") + names
				+ " in a thread model switch; allowed fields: " + String.join(", ", fields);
	}

}
