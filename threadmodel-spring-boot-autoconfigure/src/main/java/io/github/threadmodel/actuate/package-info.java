/**
 * The {@code threadmodel} actuator endpoint, its JSON bodies, and the Micrometer meters of
 * the starter's executors.
 */
package io.github.threadmodel.actuate;
