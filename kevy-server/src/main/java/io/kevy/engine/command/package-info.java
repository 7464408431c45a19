/**
 * The commands: the {@link io.kevy.engine.command.CommandTable} (one family per file, listed in
 * {@link io.kevy.engine.command.CommandFamily}), the {@link io.kevy.engine.command.Dispatcher} that looks a verb
 * up, checks it in Redis's order, locks its shards and runs its handler with a {@link io.kevy.engine.command.Call},
 * and the per-dispatcher statistics (INFO commandstats).
 */
package io.kevy.engine.command;
