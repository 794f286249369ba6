/**
 * Lanes: a thread model per route. The routes of a lane run on that lane's executor,
 * with its own model and limits, instead of the web server's request executor.
 */
package io.github.threadmodel.lanes;
