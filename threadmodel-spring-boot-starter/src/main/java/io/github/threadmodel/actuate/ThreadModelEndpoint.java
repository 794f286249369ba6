package io.github.threadmodel.actuate;

import io.github.threadmodel.ConnectionIntake;
import io.github.threadmodel.ThreadModelExecutor;
import io.github.threadmodel.ThreadModelSelection;
import io.github.threadmodel.actuate.ThreadModelDescriptor.ConnectionsDescriptor;
import io.github.threadmodel.actuate.ThreadModelDescriptor.ExecutorDescriptor;
import io.github.threadmodel.actuate.ThreadModelDescriptor.NettyDescriptor;
import io.github.threadmodel.actuate.ThreadModelDescriptor.RuntimeDescriptor;

import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.context.ApplicationContext;

/**
 * {@code /actuator/threadmodel}: the thread model in force, what the executors are doing,
 * and how the application started.
 */
@Endpoint(id = "threadmodel", defaultAccess = Access.READ_ONLY)
public class ThreadModelEndpoint {

	private final ThreadModelSelection selection;

	private final ThreadModelExecutor requests;

	private final ThreadModelExecutor tasks;

	private final ConnectionIntake intake;

	private final StartupTimeline startupTimeline;

	private final ApplicationContext context;

	private final RuntimeDescriptor runtime;

	/**
	 * Creates the endpoint.
	 * @param selection the models in force
	 * @param requests the request executor
	 * @param tasks the application task executor, or {@code null} when it is not the
	 * starter's
	 * @param intake the connection settings
	 * @param startupTimeline the startup steps
	 * @param context the application context, to name its web server
	 */
	public ThreadModelEndpoint(ThreadModelSelection selection, ThreadModelExecutor requests, ThreadModelExecutor tasks,
			ConnectionIntake intake, StartupTimeline startupTimeline, ApplicationContext context) {
		this.selection = selection;
		this.requests = requests;
		this.tasks = tasks;
		this.intake = intake;
		this.startupTimeline = startupTimeline;
		this.context = context;
		this.runtime = new RuntimeDescriptor(System.getProperty("java.version"), System.getProperty("java.vendor"),
				Runtime.getRuntime().availableProcessors(), RuntimeFlavour.detect());
	}

	@ReadOperation
	public ThreadModelDescriptor threadModel() {
		String server = ServerKind.of(this.context);
		return new ThreadModelDescriptor(this.requests.getModel().id(), this.selection.source(), server,
				ExecutorDescriptor.of(this.requests.stats()),
				(this.tasks != null) ? ExecutorDescriptor.of(this.tasks.stats()) : null,
				"netty".equals(server) ? NettyDescriptor.WEBFLUX : null, VirtualThreadScheduler.read(),
				new ConnectionsDescriptor(this.intake.acceptBacklog(), this.intake.somaxconn()),
				this.startupTimeline.steps(), this.runtime);
	}

}
