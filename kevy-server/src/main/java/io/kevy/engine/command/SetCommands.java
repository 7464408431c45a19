package io.kevy.engine.command;

/** Sets. */
final class SetCommands {
    private SetCommands() {
    }

    static void register(CommandTable t) {
        // the family registers its commands here
    }
}
