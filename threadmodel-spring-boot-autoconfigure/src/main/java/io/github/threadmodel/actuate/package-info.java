/**
 * The {@code threadmodel} actuator endpoint and its JSON bodies.
 */
package io.github.threadmodel.actuate;
