/**
 * The thread models and the executor that runs request work on one of them, switchable
 * while it runs: a bounded pool of platform threads or a virtual thread per task, with
 * overload protection (bounded waits that end in a refusal, never a dropped task) and, on
 * virtual threads, a concurrency limit that adapts to what the heap can hold.
 */
package io.github.threadmodel.executor;
