package io.kevy.engine.command;

/** Sorted sets. */
final class ZSetCommands {
    private ZSetCommands() {
    }

    static void register(CommandTable t) {
        // the family registers its commands here
    }
}
