/**
 * The 503 answer with {@code Retry-After} to a request the request executor refused under
 * overload: a servlet filter for Tomcat, Jetty and Undertow, a {@code WebExceptionHandler}
 * for WebFlux.
 */
package io.github.threadmodel.overload;
