/**
 * The 503 answer with {@code Retry-After} to a request the request executor refused under
 * overload: a servlet filter for Tomcat, Jetty and Undertow, a {@code WebExceptionHandler}
 * for WebFlux. The health probes ({@code ProbePaths}) that skip the queue and the refusals,
 * and whether the starter sheds load ({@code Shedding}), which readiness may follow (its
 * readiness publisher sits beside the overload auto-configuration).
 * Internal: public only for the starter's other packages and modules; it may change in any release.
 */
package io.github.threadmodel.internal.overload;
