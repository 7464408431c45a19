package io.kevy.engine.command;

/** Lists. */
final class ListCommands {
    private ListCommands() {
    }

    static void register(CommandTable t) {
        // the family registers its commands here
    }
}
