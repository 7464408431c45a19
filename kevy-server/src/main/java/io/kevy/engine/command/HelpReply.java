package io.kevy.engine.command;

import io.kevy.resp.ReplySink;

/** The HELP subcommand reply of Redis 7.0 ({@code addReplyHelp}): a header, the given lines, then HELP itself. */
final class HelpReply {
    private HelpReply() {
    }

    /**
     * Writes {@code +<CMD> <subcommand> [<arg> [value] [opt] ...]. Subcommands are:}, each of {@code lines}, and
     * {@code HELP} / {@code     Prints this help.}, all as simple strings.
     */
    static void write(ReplySink r, String command, String... lines) {
        r.array(lines.length + 3);
        r.simple(command + " <subcommand> [<arg> [value] [opt] ...]. Subcommands are:");
        for (String l : lines) {
            r.simple(l);
        }
        r.simple("HELP");
        r.simple("    Prints this help.");
    }
}
