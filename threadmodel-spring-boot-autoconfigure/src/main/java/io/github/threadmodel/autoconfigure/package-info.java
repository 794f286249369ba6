/**
 * Auto-configuration both Spring Boot lines share: the {@code app.threads.*} properties,
 * the executors, the endpoint, the meters, pinning detection and overload answers.
 */
package io.github.threadmodel.autoconfigure;
