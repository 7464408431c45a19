package io.kevy.testing;

import io.kevy.boot.KevyInstance;
import io.kevy.engine.EngineConfig;
import io.kevy.engine.command.CommandTable;
import io.kevy.feed.FeedConfig;

/**
 * The command table of an assembled instance (the engine's families and the feed's commands), for tests that
 * read specs only (generated docs, generators, "is it implemented" checks). Its feed handlers answer from a
 * closed one-shard instance: do not dispatch through it.
 */
public final class CommandTables {
    private static final CommandTable FULL = build();

    private CommandTables() {
    }

    /** Every command kevy serves, in COMMAND's order. */
    public static CommandTable full() {
        return FULL;
    }

    private static CommandTable build() {
        try (KevyInstance k = KevyInstance.assemble(EngineConfig.defaults().withShards(1), FeedConfig.disabled())) {
            return k.dispatcher().commands();
        }
    }
}
