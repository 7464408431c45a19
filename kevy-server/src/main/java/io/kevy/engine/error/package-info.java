/**
 * Error replies: {@link io.kevy.engine.error.ErrorReply} (a pre-encoded RESP error), the shared Redis 7.0 texts
 * ({@link io.kevy.engine.error.Errors}) and the stackless {@link io.kevy.engine.error.CommandException} that
 * carries one out of argument parsing before anything changed.
 */
package io.kevy.engine.error;
