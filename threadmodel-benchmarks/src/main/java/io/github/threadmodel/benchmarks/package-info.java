/**
 * JMH benchmarks of what the starter adds to each request, run from
 * {@code threadmodel-benchmarks/target/benchmarks.jar}; docs/benchmarks.md says how.
 */
package io.github.threadmodel.benchmarks;
