/**
 * What the endpoint and each Spring Boot line's health auto-configuration share: the
 * {@code threadModel} health contributor, the server's kind and startup timeline, and how
 * a refused value is shown back. The endpoint's description, the meters, the bound on a
 * switch request's body and the endpoint's native hints sit, package-private, beside the
 * auto-configurations that make them ({@code io.github.threadmodel.autoconfigure}).
 * Internal: public only for the starter's other packages and modules; it may change in
 * any release.
 */
package io.github.threadmodel.internal.actuate;
