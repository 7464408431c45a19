/**
 * What the examples' command-line services share: {@link io.kevy.examples.support.Shutdown} (run until Ctrl-C,
 * then close cleanly). Arguments and results are non-null unless a method says otherwise.
 */
package io.kevy.examples.support;
