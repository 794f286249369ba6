package io.github.threadmodel.executor;

/**
 * The thread models in force and where the server's came from.
 *
 * @param model the model of the web server's request handling
 * @param source the property that chose it, or {@code default}
 * @param taskModel the model of the application task executor
 */
public record ThreadModelSelection(ThreadModel model, String source, ThreadModel taskModel) {

}
