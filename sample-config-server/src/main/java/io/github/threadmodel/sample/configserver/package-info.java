/**
 * The Config Server of the fleet check (docs/fleet.md).
 */
package io.github.threadmodel.sample.configserver;
