/**
 * Which Spring Boot line the application runs, and the check each starter registers so
 * that the starter of the other line stops startup with a clear message.
 * Internal: public only for the starter's other packages and modules; it may change in any release.
 */
package io.github.threadmodel.internal.line;
