package io.github.threadmodel.autoconfigure;

import io.github.threadmodel.actuate.ThreadModelDescriptor.ConnectionsDescriptor;
import io.github.threadmodel.actuate.ThreadModelEndpoint;
import io.github.threadmodel.executor.ThreadModelSwitcher;
import io.github.threadmodel.internal.actuate.ServerKind;
import io.github.threadmodel.internal.actuate.StartupTimeline;
import io.github.threadmodel.internal.auto.AutoThreadModel;
import io.github.threadmodel.internal.lanes.Lanes;
import io.github.threadmodel.internal.overload.ProbeLane;
import io.github.threadmodel.internal.requests.AsyncRequests;
import io.github.threadmodel.internal.requests.RequestCounts;
import io.github.threadmodel.internal.servers.ConnectionIntake;
import io.github.threadmodel.pinning.VirtualThreadPinning;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ImportRuntimeHints;

/**
 * Auto-configuration of the {@code threadmodel} actuator endpoint.
 * @since 0.1.0
 */
@AutoConfiguration(after = ThreadModelAutoConfiguration.class)
@ConditionalOnClass(Endpoint.class)
@ConditionalOnWebApplication
@ConditionalOnAvailableEndpoint(ThreadModelEndpoint.class)
@ImportRuntimeHints(ThreadModelEndpointRuntimeHints.class)
public final class ThreadModelEndpointAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	ThreadModelEndpoint threadModelEndpoint(ThreadModelSettings settings, ThreadModelExecutors executors,
			RequestCounts requestCounts, ThreadModelSwitcher switcher, ConnectionIntake intake, StartupTimeline startupTimeline,
			ServerKind serverKind, ObjectProvider<VirtualThreadPinning> pinning, ObjectProvider<AutoThreadModel> auto,
			ObjectProvider<AsyncRequests> asyncRequests, ObjectProvider<Lanes> lanes, ObjectProvider<ProbeLane> probeLane) {
		return new ThreadModelEndpoint(switcher,
				new ThreadModelDescription(settings.modelSource(), executors.requests(), executors.tasks(), requestCounts,
						switcher, new ConnectionsDescriptor(intake.acceptBacklog(), intake.somaxconn()),
						startupTimeline, serverKind, pinning.getIfAvailable(), auto.getIfAvailable(),
						asyncRequests.getIfAvailable(), lanes.getIfAvailable(), probeLane.getIfAvailable()));
	}

	/**
	 * A switch with a field the endpoint does not take gets a 400 that names it, instead of
	 * being taken without the field.
	 */
	@Bean
	@ConditionalOnMissingBean
	UnknownSwitchFields threadModelUnknownSwitchFields() {
		return new UnknownSwitchFields();
	}

}
