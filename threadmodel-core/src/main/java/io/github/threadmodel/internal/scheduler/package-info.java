/**
 * The JDK's virtual-thread scheduler as the executor's adaptive limit and the endpoint
 * read it. Internal: public only for the starter's own modules; it may change in any
 * release.
 */
package io.github.threadmodel.internal.scheduler;
