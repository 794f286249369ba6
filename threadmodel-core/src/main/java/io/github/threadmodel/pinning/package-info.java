/**
 * Detection of virtual-thread pinning from the JDK Flight Recorder, counted by call site.
 */
package io.github.threadmodel.pinning;
