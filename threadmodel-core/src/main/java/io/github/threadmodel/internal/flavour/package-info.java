/**
 * Detection of the build flavour the application runs as: JVM, CDS, Spring AOT, the JDK AOT cache or a native image.
 * Internal: public only for the starter's own modules; it may change in any release.
 */
package io.github.threadmodel.internal.flavour;
