/**
 * The {@code threadmodel} actuator endpoint, its JSON bodies, the Micrometer meters of the
 * starter's executors, and the details of the {@code threadModel} health contributor.
 */
package io.github.threadmodel.actuate;
