/**
 * The hand-off of a request between the request executor and the starter's servlet filter
 * (read ahead of its turn, then admitted or refused): internal, so that the executor's API
 * does not carry it. Internal: public only for the starter's own modules; it may change
 * in any release.
 */
package io.github.threadmodel.internal.handoff;
