/**
 * What serves the endpoint and shows the executors without being the endpoint itself: the
 * Micrometer meters, the {@code threadModel} health contributor, the server's kind and
 * startup timeline, the bound on a switch request's body and the endpoint's native hints.
 * Internal: public only for the starter's own modules; it may change in any release.
 */
package io.github.threadmodel.internal.actuate;
