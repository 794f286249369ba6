/**
 * What differs on Spring Boot 3.5: the server customizers, the web server's name and
 * events, and the check that the application runs this Boot line.
 */
package io.github.threadmodel.boot3;
