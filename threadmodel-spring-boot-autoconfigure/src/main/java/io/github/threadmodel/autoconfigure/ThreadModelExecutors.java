package io.github.threadmodel.autoconfigure;

import io.github.threadmodel.executor.ThreadModelExecutor;

/**
 * The executors whose thread model the starter controls.
 *
 * @param requests the executor the web server hands request work to
 * @param tasks the application task executor when it is the starter's, or {@code null}
 * when the application has an executor of its own
 * @param tasksFollow whether the task executor follows the server's model when it
 * switches (it does unless the task executor was given a model of its own)
 */
record ThreadModelExecutors(ThreadModelExecutor requests, ThreadModelExecutor tasks, boolean tasksFollow) {

	/**
	 * The task executor when it follows the server's model.
	 * @return the task executor, or {@code null} when there is none or it keeps its own
	 * model
	 */
	ThreadModelExecutor followingTasks() {
		return this.tasksFollow ? this.tasks : null;
	}

}
