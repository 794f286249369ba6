/**
 * The {@code auto} model: samples the workload of an executor and switches it between platform and virtual threads when the measurements call for it.
 */
package io.github.threadmodel.internal.auto;
