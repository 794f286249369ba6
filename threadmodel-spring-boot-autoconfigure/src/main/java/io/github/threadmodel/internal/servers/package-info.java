/**
 * What each web server's adapter does, in terms of the server's own API (Tomcat, Jetty,
 * Reactor Netty, WebFlux), and how the servers take in connections (the accept backlog,
 * capped by the OS); each starter applies them through its Boot line's server factories.
 * Internal: public only for the starter's other packages and modules; it may change in any release.
 */
package io.github.threadmodel.internal.servers;
