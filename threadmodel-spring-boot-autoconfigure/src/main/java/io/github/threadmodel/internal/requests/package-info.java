/**
 * HTTP requests as the clients sent them, counted where a request is one request on every
 * server: a servlet filter on Tomcat, Jetty and Undertow, a decorator of the {@code HttpHandler} on
 * WebFlux.
 * The request executor's tasks do not count requests: one task can serve several
 * requests of a kept-alive connection (Tomcat), and a server can hand it tasks that are no
 * request (Jetty reading a connection's end).
 * Internal: public only for the starter's other packages and modules; it may change in any release.
 */
package io.github.threadmodel.internal.requests;
