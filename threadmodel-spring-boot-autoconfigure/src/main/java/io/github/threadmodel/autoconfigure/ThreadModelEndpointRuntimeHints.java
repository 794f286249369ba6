package io.github.threadmodel.autoconfigure;

import io.github.threadmodel.actuate.ThreadModelDescriptor;
import io.github.threadmodel.actuate.ThreadModelEndpoint.SwitchRefused;
import io.github.threadmodel.actuate.ThreadModelEndpoint;

import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * What a native image needs to write the {@code threadmodel} endpoint's bodies as JSON.
 * Spring Boot registers the return type of a read operation by itself; the write
 * operation returns either the descriptor or a refusal behind {@code Object}, so both are
 * registered here, with every type they contain.
 */
class ThreadModelEndpointRuntimeHints implements RuntimeHintsRegistrar {

	private final BindingReflectionHintsRegistrar bindingRegistrar = new BindingReflectionHintsRegistrar();

	@Override
	public void registerHints(RuntimeHints hints, ClassLoader classLoader) {
		this.bindingRegistrar.registerReflectionHints(hints.reflection(), ThreadModelDescriptor.class,
				SwitchRefused.class);
	}

}
