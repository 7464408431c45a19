/**
 * What the examples share: {@link io.kevy.examples.support.Shutdown} (run a service until Ctrl-C, then close
 * cleanly) and {@link io.kevy.examples.support.HoldBack} (hold a consumer back until its backlog overflowed). Arguments and results are non-null unless a method says otherwise.
 */
package io.kevy.examples.support;
