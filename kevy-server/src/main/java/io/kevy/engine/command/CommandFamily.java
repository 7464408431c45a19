package io.kevy.engine.command;

import java.util.List;

/**
 * A family of commands in one file (strings, keys, hashes, ...), which registers its entries in the
 * {@link CommandTable}. The list of the engine's families is here so a reader finds every command from one place;
 * the feed's commands ({@code io.kevy.feed.FeedCommands}) are added per instance by {@code io.kevy.boot.KevyInstance}.
 */
@FunctionalInterface
public interface CommandFamily {
    void register(CommandTable table);

    /** Every engine family, in the order COMMAND lists them (the feed's commands follow them). */
    static List<CommandFamily> all() {
        return List.of(
                ConnectionCommands::register,
                ServerCommands::register,
                PersistenceCommands::register,
                KeyCommands::register,
                StringCommands::register,
                BitmapCommands::register,
                HyperLogLogCommands::register,
                HyperLogLogDebugCommands::register,
                HashCommands::register,
                ListCommands::register,
                BlockingListCommands::register,
                SetCommands::register,
                ZSetCommands::register,
                GeoCommands::register,
                BlockingZSetCommands::register,
                StreamCommands::register,
                StreamReadCommands::register,
                StreamGroupCommands::register,
                StreamClaimCommands::register,
                StreamInfoCommands::register,
                SortCommands::register,
                TransactionCommands::register,
                FeedValueCommands::register);
    }
}
