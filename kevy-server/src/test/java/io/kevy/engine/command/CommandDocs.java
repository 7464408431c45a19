package io.kevy.engine.command;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * Renders docs/commands.md from the {@link CommandTable}: one section per command group (in the order the
 * families register them), one row per command and subcommand, sorted by name. {@code CommandsDocTest} keeps
 * the file equal to this text.
 */
final class CommandDocs {
    /** Write commands that never emit a frame, and why (feed contract §5, §7). */
    private static final Map<String, String> NO_FRAME_WRITES = Map.of(
            "flushall", "no: new generations",
            "flushdb", "no: new generations");

    /** Commands that emit the frames of other commands. */
    private static final Map<String, String> OTHER_FRAMES = Map.of(
            "exec", "the queued commands'",
            "sort", "with STORE",
            "eval", "its writes' (effects)",
            "evalsha", "its writes' (effects)",
            "fcall", "its writes' (effects)",
            "function|load", "FUNCTION LOAD REPLACE (shard 0)",
            "function|delete", "FUNCTION DELETE (shard 0)",
            "function|flush", "FUNCTION FLUSH / DELETE (shard 0)",
            "function|restore", "FUNCTION DELETE / LOAD REPLACE (shard 0)");

    private CommandDocs() {
    }

    static String markdown(CommandTable table) {
        Map<String, List<CommandSpec>> byGroup = new LinkedHashMap<>();
        int count = 0;
        for (CommandSpec top : table.all()) {
            List<CommandSpec> rows = byGroup.computeIfAbsent(top.group(), g -> new ArrayList<>());
            if (top.isContainer()) {
                rows.addAll(top.subcommands().values());
            } else {
                rows.add(top);
            }
        }
        for (List<CommandSpec> rows : byGroup.values()) {
            rows.sort((a, b) -> a.name().compareTo(b.name()));
            count += rows.size();
        }
        StringBuilder sb = new StringBuilder();
        sb.append("# Commands\n\n");
        sb.append("Every command kevy-server implements: ").append(count).append(" commands and subcommands in ")
                .append(byGroup.size()).append(" groups. Replies and errors follow Redis 7.0.15 byte for byte, "
                        + "except where a summary says \"kevy\". The change feed's commands are in *server* "
                        + "([cdc.md](cdc.md)).\n\n");
        sb.append("<!-- Generated from the command table (io.kevy.engine.command.CommandTable) by CommandDocs "
                + "in kevy-server's tests; do not edit. Regenerate: ./mvnw -q -B -o test -pl kevy-server "
                + "-Dtest=CommandsDocTest -Dkevy.docs.write=true -->\n\n");
        sb.append("Columns:\n\n");
        sb.append("- **arity**: the number of arguments including the command name; `-N` means at least N.\n");
        sb.append("- **keys**: the argument positions of the keys (the name is 0): `1`, `1..2`, `1..-1` "
                + "(to the end), `1..-2` (all but the last), `/2` every second one; *movable* when the command "
                + "finds its keys itself (a `numkeys` argument, an option).\n");
        sb.append("- **writes**: *yes* when the command changes data and therefore emits effect frames into the "
                + "feed of the shards it changed ([cdc.md](cdc.md#effect-frames)); a write that changes nothing "
                + "emits nothing. A read that finds an expired key emits that key's `DEL`.\n");
        sb.append("- **flags**: as `COMMAND INFO` reports them.\n\n");
        for (Map.Entry<String, List<CommandSpec>> g : byGroup.entrySet()) {
            sb.append("## ").append(g.getKey()).append("\n\n");
            sb.append("| command | arity | keys | writes | flags | since | summary |\n");
            sb.append("|---|---|---|---|---|---|---|\n");
            for (CommandSpec s : g.getValue()) {
                sb.append("| `").append(displayName(s)).append("` | ").append(s.arity()).append(" | ")
                        .append(keys(s)).append(" | ").append(writes(s)).append(" | ").append(flags(s))
                        .append(" | ").append(s.since()).append(" | ").append(cell(s.summary())).append(" |\n");
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    private static String displayName(CommandSpec s) {
        return s.name().toUpperCase(java.util.Locale.ROOT).replace('|', ' ');
    }

    static String keys(CommandSpec s) {
        if (s.keyFinder() != null) {
            return "movable";
        }
        if (s.firstKey() == 0) {
            return "";
        }
        String range;
        if (s.lastKey() == s.firstKey()) {
            range = Integer.toString(s.firstKey());
        } else {
            range = s.firstKey() + ".." + s.lastKey();
        }
        return s.step() > 1 ? range + "/" + s.step() : range;
    }

    private static String writes(CommandSpec s) {
        String special = NO_FRAME_WRITES.getOrDefault(s.name(), OTHER_FRAMES.get(s.name()));
        if (special != null) {
            return special;
        }
        return s.isWrite() ? "yes" : "";
    }

    private static String flags(CommandSpec s) {
        StringJoiner j = new StringJoiner(" ");
        for (CommandFlag f : s.flags()) {
            if (f.redisName() != null) {
                j.add(f.redisName());
            }
        }
        return j.toString();
    }

    /** A table cell: pipes escaped, no line breaks. */
    private static String cell(String text) {
        return text.replace("|", "\\|").replace('\n', ' ');
    }
}
