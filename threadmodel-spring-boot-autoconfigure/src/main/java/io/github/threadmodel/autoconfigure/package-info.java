/**
 * Auto-configuration both Spring Boot lines share: the {@code app.threads.*} properties,
 * the executors, the endpoint, the meters, pinning detection, overload answers and the
 * check that a starter runs on its own Boot line.
 */
package io.github.threadmodel.autoconfigure;
