package io.kevy.engine.command;

/**
 * Runs one command. Called with the locks of the shards the command's keys live on already held (see
 * {@link CommandSpec#lockScope()}), so a handler reads and changes the keyspace and emits its effect frames
 * in one critical section.
 *
 * <p>Contract: validate every argument before the first change, so a command that fails changes nothing and
 * emits nothing (throw {@link io.kevy.engine.error.CommandException} to reply an error); write exactly one reply;
 * emit exactly the frames of feed contract §7 for what changed.
 */
@FunctionalInterface
public interface CommandHandler {
    void execute(Call call);
}
