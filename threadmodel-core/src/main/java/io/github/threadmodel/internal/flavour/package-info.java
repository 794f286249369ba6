/**
 * Detection of the build flavour the application runs as: JVM, CDS, Spring AOT, the JDK AOT cache or a native image.
 */
package io.github.threadmodel.internal.flavour;
