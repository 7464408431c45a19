package io.kevy.engine.command;

/** Bitmap commands (SETBIT, GETBIT, BITCOUNT, BITPOS, BITOP, BITFIELD). */
final class BitmapCommands {
    private BitmapCommands() {
    }

    static void register(CommandTable t) {
        // the family registers its commands here
    }
}
