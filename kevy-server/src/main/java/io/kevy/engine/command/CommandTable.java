package io.kevy.engine.command;

import io.kevy.engine.text.Bytes;
import io.kevy.resp.KeyShape;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The command table: every command kevy implements, registered by its family class
 * ({@code StringCommands}, {@code KeyCommands}, ...). Lookups are case-insensitive and allocation-free.
 *
 * <p>Immutable once built; thread-safe.
 */
public final class CommandTable {
    private static volatile CommandTable standard;

    private final Map<String, CommandSpec> byName = new LinkedHashMap<>();
    private CommandSpec[] index = new CommandSpec[0];

    CommandTable() {
    }

    /**
     * The table of every engine command family ({@link CommandFamily#all()}); built once. An instance's table adds
     * the feed's commands to it ({@link #with}).
     */
    public static CommandTable standard() {
        CommandTable t = standard;
        if (t == null) {
            synchronized (CommandTable.class) {
                t = standard;
                if (t == null) {
                    t = new CommandTable();
                    for (CommandFamily f : CommandFamily.all()) {
                        f.register(t);
                    }
                    t.buildIndex();
                    standard = t;
                }
            }
        }
        return t;
    }

    /**
     * A new table with this table's commands (the same {@link CommandSpec}s, in order) followed by those
     * {@code families} register; this table is unchanged.
     *
     * @throws IllegalStateException when a family registers a name already in the table
     */
    public CommandTable with(CommandFamily... families) {
        CommandTable t = new CommandTable();
        t.byName.putAll(byName);
        for (CommandFamily f : families) {
            f.register(t);
        }
        t.buildIndex();
        return t;
    }

    /** Adds a command; duplicate names are a bug. */
    public void add(CommandSpec spec) {
        if (byName.putIfAbsent(spec.name(), spec) != null) {
            throw new IllegalStateException("command registered twice: " + spec.name());
        }
    }

    /** Convenience for {@code add(builder.build())}. */
    public void add(CommandSpec.Builder builder) {
        add(builder.build());
    }

    /** The command named {@code name} (ASCII case-insensitive), or null. */
    public CommandSpec lookup(byte[] name) {
        CommandSpec[] idx = index;
        int mask = idx.length - 1;
        for (int i = hashLower(name) & mask; ; i = (i + 1) & mask) {
            CommandSpec s = idx[i];
            if (s == null) {
                return null;
            }
            if (Bytes.equalsIgnoreCase(name, s.name())) {
                return s;
            }
        }
    }

    /**
     * The key shape of the command named {@code buf[from, from + length)} (ASCII case-insensitive): a
     * {@link KeyShape.Lookup} for the PREFIX filter (feed contract §8). Null for an unknown verb or movable keys.
     */
    public KeyShape keyShape(byte[] buf, int from, int length) {
        CommandSpec[] idx = index;
        int mask = idx.length - 1;
        for (int i = hashLower(buf, from, length) & mask; ; i = (i + 1) & mask) {
            CommandSpec s = idx[i];
            if (s == null) {
                return null;
            }
            if (equalsLower(buf, from, length, s.name())) {
                return s.keyShape();
            }
        }
    }

    /** The command named {@code name} (lower case), or null. */
    public CommandSpec lookup(String name) {
        return byName.get(name);
    }

    /** Every top-level command, in registration order. */
    public List<CommandSpec> all() {
        return Collections.unmodifiableList(new ArrayList<>(byName.values()));
    }

    public int size() {
        return byName.size();
    }

    private void buildIndex() {
        int cap = Integer.highestOneBit(Math.max(4, byName.size() * 4) - 1) << 1;
        CommandSpec[] idx = new CommandSpec[cap];
        for (CommandSpec s : byName.values()) {
            byte[] n = Bytes.utf8(s.name());
            int i = hashLower(n) & (cap - 1);
            while (idx[i] != null) {
                i = (i + 1) & (cap - 1);
            }
            idx[i] = s;
        }
        index = idx;
    }

    private static int hashLower(byte[] b) {
        return hashLower(b, 0, b.length);
    }

    private static int hashLower(byte[] b, int from, int length) {
        int h = 0;
        for (int i = from; i < from + length; i++) {
            int c = b[i];
            if (c >= 'A' && c <= 'Z') {
                c += 'a' - 'A';
            }
            h = 31 * h + c;
        }
        return h ^ (h >>> 16);
    }

    /** ASCII case-insensitive comparison of {@code b[from, from + length)} with the lower-case {@code lower}. */
    private static boolean equalsLower(byte[] b, int from, int length, String lower) {
        if (length != lower.length()) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            int c = b[from + i];
            if (c >= 'A' && c <= 'Z') {
                c += 'a' - 'A';
            }
            if (c != lower.charAt(i)) {
                return false;
            }
        }
        return true;
    }
}
