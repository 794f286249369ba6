/**
 * Auto-configuration both Spring Boot lines share: the {@code app.threads.*} properties,
 * the executors, the endpoint, the meters, pinning detection and overload answers. What
 * only one of these auto-configurations uses and no capability package holds (the
 * endpoint's description and switch body limit, the meters, the readiness publisher) is
 * package-private beside it.
 */
package io.github.threadmodel.autoconfigure;
