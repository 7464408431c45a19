package io.kevy.engine.command;

import static io.kevy.engine.command.CommandFlag.LOADING;
import static io.kevy.engine.command.CommandFlag.STALE;
import static io.kevy.engine.command.CommandSpec.command;
import io.kevy.engine.error.ErrorReply;
import io.kevy.engine.error.Errors;
import io.kevy.engine.text.Bytes;
import io.kevy.engine.text.Glob;
import io.kevy.resp.ReplySink;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * COMMAND [COUNT | LIST [FILTERBY MODULE m | ACLCAT c | PATTERN p] | INFO [name ...] | DOCS [name ...] | GETKEYS
 * cmd ... | GETKEYSANDFLAGS cmd ... | HELP], generated from the {@link CommandTable} in Redis 7.0's reply shapes
 * ({@link CommandMetadata} derives what the table does not state). Names may be {@code container|sub}.
 *
 * <p>kevy differences: the order of commands is the table's (Redis's is its hash table's); COMMAND DOCS gives
 * summary, since, group, complexity and subcommands, but no argument descriptions or history.
 */
final class CommandCommands {
    static final ErrorReply INVALID_COMMAND = ErrorReply.err("Invalid command specified");
    static final ErrorReply NO_KEYS = ErrorReply.err("The command has no key arguments");
    static final ErrorReply INVALID_ARG_COUNT = ErrorReply.err("Invalid number of arguments specified for command");
    static final ErrorReply INVALID_ARGS = ErrorReply.err("Invalid arguments specified for command");

    private CommandCommands() {
    }

    static void register(CommandTable t) {
        t.add(command("command", -1).flags(LOADING, STALE).group("server").since("2.8.13").acl("connection")
                .summary("Get array of Redis command details")
                .complexity("O(N) where N is the total number of Redis commands")
                .tips("nondeterministic_output_order")
                .handler(c -> infoAll(c))
                .subcommand(sub("count", 2, "Get total number of Redis commands", "2.8.13", "O(1)")
                        .handler(c -> c.reply().integer(c.dispatcher().commands().size())))
                .subcommand(sub("list", -2, "Get an array of Redis command names", "7.0.0",
                        "O(N) where N is the total number of Redis commands").tips("nondeterministic_output_order")
                        .handler(CommandCommands::list))
                .subcommand(sub("info", -2, "Get array of specific Redis command details, or all when no argument "
                        + "is given.", "2.8.13", "O(N) where N is the number of commands to look up")
                        .tips("nondeterministic_output_order").handler(CommandCommands::info))
                .subcommand(sub("docs", -2, "Get array of specific Redis command documentation", "7.0.0",
                        "O(N) where N is the number of commands to look up").tips("nondeterministic_output_order")
                        .handler(CommandCommands::docs))
                .subcommand(sub("getkeys", -4, "Extract keys given a full Redis command", "2.8.13",
                        "O(N) where N is the number of arguments to the command").handler(c -> getKeys(c, false)))
                .subcommand(sub("getkeysandflags", -4, "Extract keys and access flags given a full Redis command",
                        "7.0.0", "O(N) where N is the number of arguments to the command")
                        .handler(c -> getKeys(c, true)))
                .subcommand(sub("help", 2, "Show helpful text about the different subcommands", "5.0.0", "O(1)")
                        .handler(CommandCommands::help)));
    }

    private static CommandSpec.Builder sub(String name, int arity, String summary, String since, String complexity) {
        return command(name, arity).flags(LOADING, STALE).since(since).summary(summary).complexity(complexity)
                .acl("connection");
    }

    /** The command named {@code name} ({@code get}, {@code config|get}; any case), or null. */
    static CommandSpec lookup(CommandTable table, String name) {
        int bar = name.indexOf('|');
        if (bar < 0) {
            return table.lookup(Bytes.utf8(name));
        }
        CommandSpec top = table.lookup(Bytes.utf8(name.substring(0, bar)));
        return top == null ? null : top.subcommands().get(name.substring(bar + 1).toLowerCase(Locale.ROOT));
    }

    private static void infoAll(Call c) {
        List<CommandSpec> all = c.dispatcher().commands().all();
        c.reply().array(all.size());
        for (CommandSpec s : all) {
            CommandMetadata.writeInfo(c.reply(), s);
        }
    }

    private static void info(Call c) {
        if (c.argc() == 2) {
            infoAll(c);
            return;
        }
        ReplySink r = c.reply();
        r.array(c.argc() - 2);
        for (int i = 2; i < c.argc(); i++) {
            CommandSpec s = lookup(c.dispatcher().commands(), Bytes.str(c.arg(i)));
            if (s == null) {
                r.nullBulk();
            } else {
                CommandMetadata.writeInfo(r, s);
            }
        }
    }

    private static void docs(Call c) {
        List<CommandSpec> specs = new ArrayList<>();
        if (c.argc() == 2) {
            specs.addAll(c.dispatcher().commands().all());
        } else {
            for (int i = 2; i < c.argc(); i++) {
                CommandSpec s = lookup(c.dispatcher().commands(), Bytes.str(c.arg(i)));
                if (s != null) {
                    specs.add(s);
                }
            }
        }
        ReplySink r = c.reply();
        r.map(specs.size());
        for (CommandSpec s : specs) {
            r.bulk(s.name());
            CommandMetadata.writeDocs(r, s);
        }
    }

    /** COMMAND LIST [FILTERBY MODULE|ACLCAT|PATTERN arg]: full names, subcommands after their container. */
    private static void list(Call c) {
        String filter = null;
        byte[] arg = null;
        int i = 2;
        while (i < c.argc()) {
            if (c.argIs(i, "filterby") && c.argc() - 1 - i == 2) {
                if (c.argIs(i + 1, "module") || c.argIs(i + 1, "aclcat") || c.argIs(i + 1, "pattern")) {
                    filter = Bytes.lowerAscii(c.arg(i + 1));
                } else {
                    throw Call.fail(Errors.SYNTAX);
                }
                arg = c.arg(i + 2);
                i += 3;
            } else {
                throw Call.fail(Errors.SYNTAX);
            }
        }
        List<String> names = new ArrayList<>();
        for (CommandSpec s : c.dispatcher().commands().all()) {
            addIfMatches(names, s, filter, arg);
            for (CommandSpec sub : s.subcommands().values()) {
                addIfMatches(names, sub, filter, arg);
            }
        }
        ReplySink r = c.reply();
        r.array(names.size());
        names.forEach(r::bulk);
    }

    private static void addIfMatches(List<String> out, CommandSpec s, String filter, byte[] arg) {
        boolean ok;
        if (filter == null) {
            ok = true;
        } else if (filter.equals("module")) {
            ok = false;
        } else if (filter.equals("aclcat")) {
            ok = CommandMetadata.aclCategories(s).contains(Bytes.lowerAscii(arg));
        } else {
            ok = Glob.matches(arg, Bytes.utf8(s.name()), true);
        }
        if (ok) {
            out.add(s.name());
        }
    }

    /** COMMAND GETKEYS / GETKEYSANDFLAGS full-command: Redis 7.0's checks and errors, in its order. */
    private static void getKeys(Call c, boolean withFlags) {
        byte[][] argv = Arrays.copyOfRange(c.argv(), 2, c.argc());
        CommandSpec spec = c.dispatcher().commands().lookup(argv[0]);
        if (spec != null && spec.isContainer() && argv.length >= 2) {
            spec = spec.subcommands().get(Bytes.lowerAscii(argv[1]));
        }
        if (spec == null) {
            throw Call.fail(INVALID_COMMAND);
        }
        if (spec.firstKey() == 0 && spec.keyFinder() == null) {
            throw Call.fail(NO_KEYS);
        }
        if (!spec.arityOk(argv.length)) {
            throw Call.fail(INVALID_ARG_COUNT);
        }
        int[] pos = spec.keyPositions(argv);
        if (spec.sourceKeyFlags() != null && argv.length <= spec.firstKey() + 1) {
            throw Call.fail(INVALID_ARGS); // Redis: the second key spec begins past the arguments
        }
        ReplySink r = c.reply();
        if (pos == null || pos.length == 0) {
            if (spec.has(CommandFlag.NO_MANDATORY_KEYS)) {
                r.array(0);
                return;
            }
            throw Call.fail(INVALID_ARGS);
        }
        List<String> keyFlags = CommandMetadata.keyFlags(spec);
        List<String> sourceFlags = spec.sourceKeyFlags() != null ? spec.sourceKeyFlags() : keyFlags;
        r.array(pos.length);
        for (int p : pos) {
            if (withFlags) {
                List<String> flags = p == pos[0] ? keyFlags : sourceFlags;
                r.array(2);
                r.bulk(argv[p]);
                r.set(flags.size());
                flags.forEach(r::simple);
            } else {
                r.bulk(argv[p]);
            }
        }
    }

    private static void help(Call c) {
        HelpReply.write(c.reply(), "COMMAND",
                "(no subcommand)",
                "    Return details about all Redis commands.",
                "COUNT",
                "    Return the total number of commands in this Redis server.",
                "LIST",
                "    Return a list of all commands in this Redis server.",
                "INFO [<command-name> ...]",
                "    Return details about multiple Redis commands.",
                "    If no command names are given, documentation details for all",
                "    commands are returned.",
                "DOCS [<command-name> ...]",
                "    Return documentation details about multiple Redis commands.",
                "    If no command names are given, documentation details for all",
                "    commands are returned.",
                "GETKEYS <full-command>",
                "    Return the keys from a full Redis command.",
                "GETKEYSANDFLAGS <full-command>",
                "    Return the keys and the access flags from a full Redis command.");
    }
}
