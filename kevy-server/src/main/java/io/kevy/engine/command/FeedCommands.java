package io.kevy.engine.command;

/** The change feed: FEED.SHARDS, FEED.TAIL, FEED.READ and PREFIX.STATS (feed contract §4). */
final class FeedCommands {
    private FeedCommands() {
    }

    static void register(CommandTable t) {
        // the family registers its commands here
    }
}
