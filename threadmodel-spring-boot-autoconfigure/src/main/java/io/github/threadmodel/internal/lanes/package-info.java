/**
 * Lanes: which lane's executor a servlet request runs on, by its path or by the
 * {@code @ThreadLane} annotation of its handler.
 */
package io.github.threadmodel.internal.lanes;
