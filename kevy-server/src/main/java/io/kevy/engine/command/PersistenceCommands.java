package io.kevy.engine.command;

import static io.kevy.engine.command.CommandFlag.ADMIN;
import static io.kevy.engine.command.CommandFlag.NOSCRIPT;
import static io.kevy.engine.command.CommandFlag.NO_LOCK;
import static io.kevy.engine.command.CommandFlag.NO_MULTI;
import static io.kevy.engine.command.CommandSpec.command;
import io.kevy.engine.error.ErrorReply;
import io.kevy.engine.error.Errors;

/**
 * Persistence commands: SAVE, BGSAVE, BGREWRITEAOF, delegating to the engine's
 * {@link io.kevy.engine.Durability}. Snapshots capture each shard under its lock only briefly, so even SAVE
 * (which replies after the files are durable) does not stop other clients for its whole duration.
 */
final class PersistenceCommands {
    private PersistenceCommands() {
    }

    static void register(CommandTable t) {
        t.add(command("save", 1).flags(ADMIN, NOSCRIPT, NO_MULTI, NO_LOCK).group("server").since("1.0.0")
                .summary("Synchronously saves every shard's snapshot (dump-{i}.rdb) and replies when they are durable.")
                .handler(c -> {
                    String err = c.engine().durability().save();
                    if (err != null) {
                        throw Call.fail(ErrorReply.of(err));
                    }
                    c.reply().ok();
                }));
        t.add(command("bgsave", -1).flags(ADMIN, NOSCRIPT, NO_MULTI, NO_LOCK).group("server").since("1.0.0")
                .summary("Saves every shard's snapshot in the background; replies at once.")
                .handler(PersistenceCommands::bgsave));
        t.add(command("bgrewriteaof", 1).flags(ADMIN, NOSCRIPT, NO_MULTI, NO_LOCK).group("server").since("1.0.0")
                .summary("Rewrites the AOF in the background: a snapshot, then a new AOF continuing from its cursor.")
                .handler(c -> status(c, c.engine().durability().bgrewriteaof())));
    }

    private static void bgsave(Call c) {
        boolean schedule = false;
        if (c.argc() == 2 && c.argIs(1, "schedule")) {
            schedule = true;
        } else if (c.argc() > 1) {
            throw Call.fail(Errors.SYNTAX);
        }
        status(c, c.engine().durability().bgsave(schedule));
    }

    private static void status(Call c, String text) {
        if (text.startsWith("ERR ") || text.startsWith("MISCONF ")) {
            throw Call.fail(ErrorReply.of(text));
        }
        c.reply().simple(text);
    }
}
