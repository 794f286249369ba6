/**
 * The {@code auto} model: samples the workload of an executor and switches it between platform and virtual threads when the measurements call for it.
 * Internal: public only for the starter's own modules; it may change in any release.
 */
package io.github.threadmodel.internal.auto;
