package io.kevy.script;

import static io.kevy.engine.command.CommandFlag.ALLOW_BUSY;
import static io.kevy.engine.command.CommandFlag.ALL_SHARDS;
import static io.kevy.engine.command.CommandFlag.DENYOOM;
import static io.kevy.engine.command.CommandFlag.LOADING;
import static io.kevy.engine.command.CommandFlag.NOSCRIPT;
import static io.kevy.engine.command.CommandFlag.NO_LOCK;
import static io.kevy.engine.command.CommandFlag.NO_MANDATORY_KEYS;
import static io.kevy.engine.command.CommandFlag.READONLY;
import static io.kevy.engine.command.CommandFlag.RUNS_SCRIPT;
import static io.kevy.engine.command.CommandFlag.SKIP_MONITOR;
import static io.kevy.engine.command.CommandFlag.STALE;
import static io.kevy.engine.command.CommandFlag.WRITE;
import static io.kevy.engine.command.CommandSpec.command;

import io.kevy.engine.command.Call;
import io.kevy.engine.command.CommandTable;
import io.kevy.engine.command.HelpReply;
import io.kevy.engine.dump.DumpDecoder;
import io.kevy.engine.error.ErrorReply;
import io.kevy.engine.error.Errors;
import io.kevy.engine.text.Bytes;
import io.kevy.engine.text.Glob;
import io.kevy.engine.text.RedisNumbers;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * FCALL, FCALL_RO and FUNCTION LOAD | LIST | DELETE | FLUSH | DUMP | RESTORE | STATS | KILL | HELP, as Redis 7.0
 * ({@code functions.c}: replies, argument order and error texts). The libraries are {@link Functions}; a
 * function runs as a script does ({@link Scripts#call}), with every shard locked.
 *
 * <p>FCALL checks, in Redis's order: the function exists ({@code ERR Function not found}), numkeys is an integer
 * ({@code ERR Bad number of keys provided}), not above the arguments, not negative; then for a function without
 * {@code no-writes}: a read-only replica ({@code -READONLY Can not run script with write flag on readonly
 * replica}), a failing disk ({@code -MISCONF ...}), FCALL_RO ({@code ERR Can not execute a script with write flag
 * using *_ro command.}).
 *
 * <p>Frames: FCALL emits its writes' effects, as EVAL; FUNCTION LOAD, DELETE, FLUSH and RESTORE emit the effect
 * frames {@link Functions} gives ({@code FUNCTION LOAD REPLACE <code>}, {@code FUNCTION DELETE <lib>},
 * {@code FUNCTION FLUSH}) on shard 0, inside the change's critical section (docs/cdc.md). A failed command
 * changes nothing and emits nothing.
 */
public final class FunctionCommands {
    private static final ErrorReply NOT_FOUND = ErrorReply.err("Function not found");
    private static final ErrorReply BAD_NUMKEYS = ErrorReply.err("Bad number of keys provided");
    private static final ErrorReply RO_WRITE = ErrorReply.err(
            "Can not execute a script with write flag using *_ro command.");
    private static final ErrorReply REPLICA = ErrorReply.of(
            "READONLY Can not run script with write flag on readonly replica");
    private static final ErrorReply FLUSH_OPTION = ErrorReply.err("FUNCTION FLUSH only supports SYNC|ASYNC option");
    private static final ErrorReply BAD_PAYLOAD = ErrorReply.err("DUMP payload version or checksum are wrong");
    private static final ErrorReply BAD_POLICY = ErrorReply.err(
            "Wrong restore policy given, value should be either FLUSH, APPEND or REPLACE.");

    private FunctionCommands() {
    }

    /** Registers FCALL, FCALL_RO and FUNCTION over {@code functions} in {@code t}. */
    public static void register(CommandTable t, Functions functions) {
        t.add(command("fcall", -3).flags(NOSCRIPT, STALE, SKIP_MONITOR, NO_MANDATORY_KEYS, ALL_SHARDS, RUNS_SCRIPT)
                .keys(0, 0, 0, ScriptCommands.KEYS).keynum(2).group(ScriptCommands.GROUP).since("7.0.0")
                .summary("Invoke a function").complexity("Depends on the function that is executed.")
                .keyNotes("We cannot tell how the keys will be used so we assume the worst, RW and UPDATE")
                .keyFlags("RW", "access", "update").handler(c -> fcall(c, functions, false)));
        t.add(command("fcall_ro", -3).flags(READONLY, NOSCRIPT, STALE, SKIP_MONITOR, NO_MANDATORY_KEYS, ALL_SHARDS,
                RUNS_SCRIPT)
                .keys(0, 0, 0, ScriptCommands.KEYS).keynum(2).group(ScriptCommands.GROUP).since("7.0.0")
                .summary("Invoke a read-only function").complexity("Depends on the function that is executed.")
                .keyNotes("We cannot tell how the keys will be used so we assume the worst, RO and ACCESS")
                .keyFlags("RO", "access").handler(c -> fcall(c, functions, true)));
        String allShards = "request_policy:all_shards";
        t.add(command("function", -2).group(ScriptCommands.GROUP).since("7.0.0")
                .summary("A container for function commands").complexity("Depends on subcommand.")
                .subcommand(command("load", -3).flags(WRITE, DENYOOM, NOSCRIPT, ALL_SHARDS).since("7.0.0")
                        .summary("Create a function with the given arguments (name, code, description)")
                        .complexity("O(1) (considering compilation time is redundant)")
                        .tips(allShards, "response_policy:all_succeeded").handler(c -> load(c, functions)))
                .subcommand(command("list", -2).flags(NOSCRIPT, NO_LOCK).since("7.0.0")
                        .summary("List information about all the functions")
                        .complexity("O(N) where N is the number of functions")
                        .tips("nondeterministic_output_order").handler(c -> list(c, functions)))
                .subcommand(command("delete", 3).flags(WRITE, NOSCRIPT, ALL_SHARDS).since("7.0.0")
                        .summary("Delete a function by name").complexity("O(1)")
                        .tips(allShards, "response_policy:all_succeeded").handler(c -> delete(c, functions)))
                .subcommand(command("flush", -2).flags(WRITE, NOSCRIPT, ALL_SHARDS).since("7.0.0")
                        .summary("Deleting all functions")
                        .complexity("O(N) where N is the number of functions deleted")
                        .tips(allShards, "response_policy:all_succeeded").handler(c -> flush(c, functions)))
                .subcommand(command("dump", 2).flags(NOSCRIPT, NO_LOCK).since("7.0.0")
                        .summary("Dump all functions into a serialized binary payload")
                        .complexity("O(N) where N is the number of functions").handler(c -> dump(c, functions)))
                .subcommand(command("restore", -3).flags(WRITE, DENYOOM, NOSCRIPT, ALL_SHARDS).since("7.0.0")
                        .summary("Restore all the functions on the given payload")
                        .complexity("O(N) where N is the number of functions on the payload")
                        .tips(allShards, "response_policy:all_succeeded").handler(c -> restore(c, functions)))
                .subcommand(command("stats", 2).flags(NOSCRIPT, ALLOW_BUSY, NO_LOCK).since("7.0.0")
                        .summary("Return information about the function currently running (name, description, "
                                + "duration)").complexity("O(1)")
                        .tips("nondeterministic_output", allShards, "response_policy:special")
                        .handler(c -> stats(c, functions)))
                .subcommand(command("kill", 2).flags(NOSCRIPT, ALLOW_BUSY, NO_LOCK).since("7.0.0")
                        .summary("Kill the function currently in execution.").complexity("O(1)")
                        .tips(allShards, "response_policy:one_succeeded").handler(c -> kill(c, functions)))
                .subcommand(command("help", 2).flags(LOADING, STALE, NO_LOCK).since("7.0.0")
                        .summary("Show helpful text about the different subcommands").complexity("O(1)")
                        .handler(FunctionCommands::help)));
    }

    private static void fcall(Call c, Functions functions, boolean ro) {
        LibraryFunction fn = functions.function(c.arg(1));
        if (fn == null) {
            throw Call.fail(NOT_FOUND);
        }
        long n = RedisNumbers.parseLongOr(c.arg(2), Long.MIN_VALUE);
        if (n == Long.MIN_VALUE && !RedisNumbers.isLong(c.arg(2))) {
            throw Call.fail(BAD_NUMKEYS);
        }
        if (n > c.argc() - 3) {
            throw Call.fail(ScriptErrors.TOO_MANY_KEYS);
        }
        if (n < 0) {
            throw Call.fail(ScriptErrors.NEGATIVE_KEYS);
        }
        if (!fn.noWrites()) {
            checkMayWrite(c, ro);
        }
        functions.scripts().call(c, fn, (int) n, ro || fn.noWrites());
    }

    /**
     * Redis's {@code scriptPrepareForRun} for a function or a shebang script without {@code no-writes}: refused
     * on a read-only replica and while the disk fails (unless the primary's link runs it), and by FCALL_RO and
     * EVAL_RO ({@code ro}).
     */
    static void checkMayWrite(Call c, boolean ro) {
        if (c.engine().writeRefusal() != null && !c.session().master()) {
            throw Call.fail(REPLICA);
        }
        String disk = c.engine().durability().writeError();
        if (disk != null && !c.session().master()) {
            throw Call.fail(ErrorReply.of("MISCONF Redis is configured to persist data to AOF, but it's "
                    + "currently unable to persist to disk. Writable scripts are blocked. Use 'no-writes' flag "
                    + "for read only scripts. AOF error: " + disk.replaceFirst("^MISCONF [^:]*: ", "")));
        }
        if (ro) {
            throw Call.fail(RO_WRITE);
        }
    }

    private static void load(Call c, Functions functions) {
        boolean replace = false;
        int pos = 2;
        while (pos < c.argc() - 1) {
            if (!c.argIs(pos, "replace")) {
                throw Call.fail(ErrorReply.err("Unknown option given: " + Bytes.str(c.arg(pos))));
            }
            replace = true;
            pos++;
        }
        long timeout = c.session().master() ? 0 : LibraryLoader.LOAD_TIMEOUT_MS; // Redis's mustObeyClient
        Functions.Change change;
        try {
            change = functions.load(c.arg(pos), replace, timeout);
        } catch (IllegalArgumentException e) {
            throw Call.fail(ErrorReply.err(e.getMessage()));
        }
        emit(c, change);
        c.reply().bulk(change.library());
    }

    private static void delete(Call c, Functions functions) {
        Functions.Change change;
        try {
            change = functions.delete(new String(c.arg(2), StandardCharsets.ISO_8859_1));
        } catch (IllegalArgumentException e) {
            throw Call.fail(ErrorReply.err(e.getMessage()));
        }
        emit(c, change);
        c.reply().ok();
    }

    private static void flush(Call c, Functions functions) {
        if (c.argc() > 3) {
            throw Call.fail(syntax(c));
        }
        if (c.argc() == 3 && !c.argIs(2, "sync") && !c.argIs(2, "async")) {
            throw Call.fail(FLUSH_OPTION);
        }
        emit(c, functions.flush());
        c.reply().ok();
    }

    private static void restore(Call c, Functions functions) {
        if (c.argc() > 4) {
            throw Call.fail(syntax(c));
        }
        Functions.RestorePolicy policy = Functions.RestorePolicy.APPEND;
        if (c.argc() == 4) {
            if (c.argIs(3, "append")) {
                policy = Functions.RestorePolicy.APPEND;
            } else if (c.argIs(3, "replace")) {
                policy = Functions.RestorePolicy.REPLACE;
            } else if (c.argIs(3, "flush")) {
                policy = Functions.RestorePolicy.FLUSH;
            } else {
                throw Call.fail(BAD_POLICY);
            }
        }
        byte[] payload = c.arg(2);
        if (!DumpDecoder.verify(payload)) {
            throw Call.fail(BAD_PAYLOAD);
        }
        Functions.Change change;
        try {
            change = functions.restore(payload, policy);
        } catch (IllegalArgumentException e) {
            throw Call.fail(ErrorReply.err(e.getMessage()));
        }
        emit(c, change);
        c.reply().ok();
    }

    /** Redis's {@code addReplySubcommandSyntaxError}. */
    private static ErrorReply syntax(Call c) {
        return ErrorReply.err("unknown subcommand or wrong number of arguments for '"
                + new String(c.arg(1), 0, Math.min(128, c.arg(1).length), StandardCharsets.ISO_8859_1)
                + "'. Try FUNCTION HELP.");
    }

    private static void emit(Call c, Functions.Change change) {
        for (byte[][] f : change.frames()) {
            c.emitServer(f);
        }
    }

    private static void list(Call c, Functions functions) {
        boolean withCode = false;
        byte[] pattern = null;
        for (int i = 2; i < c.argc(); i++) {
            if (!withCode && c.argIs(i, "withcode")) {
                withCode = true;
                continue;
            }
            if (pattern == null && c.argIs(i, "libraryname")) {
                if (i >= c.argc() - 1) {
                    throw Call.fail(ErrorReply.err("library name argument was not given"));
                }
                pattern = c.arg(++i);
                continue;
            }
            throw Call.fail(ErrorReply.err("Unknown argument " + Bytes.str(c.arg(i))));
        }
        List<Library> shown = new ArrayList<>();
        for (Library l : functions.libraries()) {
            if (pattern == null || Glob.matches(pattern, l.name().getBytes(StandardCharsets.ISO_8859_1), true)) {
                shown.add(l);
            }
        }
        c.reply().array(shown.size());
        for (Library l : shown) {
            c.reply().map(withCode ? 4 : 3); // Redis's functionListCommand: maps and a set on RESP3
            c.reply().bulk("library_name");
            c.reply().bulk(l.name().getBytes(StandardCharsets.ISO_8859_1));
            c.reply().bulk("engine");
            c.reply().bulk(l.engine());
            c.reply().bulk("functions");
            c.reply().array(l.functions().size());
            for (LibraryFunction f : l.functions().values()) {
                c.reply().map(3);
                c.reply().bulk("name");
                c.reply().bulk(f.name());
                c.reply().bulk("description");
                c.reply().bulkOrNull(f.description());
                c.reply().bulk("flags");
                c.reply().set(f.flags().size());
                for (FunctionFlag flag : f.flags()) {
                    c.reply().simple(flag.redisName());
                }
            }
            if (withCode) {
                c.reply().bulk("library_code");
                c.reply().bulk(l.code());
            }
        }
    }

    private static void dump(Call c, Functions functions) {
        boolean compression = !"no".equals(c.engine().runtimeConfig().get("rdbcompression"));
        c.reply().bulk(functions.dump(compression));
    }

    private static void stats(Call c, Functions functions) {
        ScriptRun run = functions.scripts().running();
        if (run != null && !run.function) {
            throw Call.fail(Errors.BUSY); // Redis's slowevalerr: FUNCTION STATS during EVAL
        }
        c.reply().map(2); // Redis's functionStatsCommand: maps on RESP3
        c.reply().bulk("running_script");
        if (run == null) {
            c.reply().nullBulk();
        } else {
            c.reply().map(3);
            c.reply().bulk("name");
            c.reply().bulk(run.sha);
            c.reply().bulk("command");
            byte[][] argv = run.argv;
            c.reply().array(argv.length);
            for (byte[] a : argv) {
                c.reply().bulk(a);
            }
            c.reply().bulk("duration_ms");
            c.reply().integer((System.nanoTime() - run.startNanos) / 1_000_000L);
        }
        c.reply().bulk("engines");
        c.reply().map(1);
        c.reply().bulk(Library.LUA);
        c.reply().map(2);
        c.reply().bulk("libraries_count");
        c.reply().integer(functions.libraries().size());
        c.reply().bulk("functions_count");
        c.reply().integer(functions.functionCount());
    }

    private static void kill(Call c, Functions functions) {
        ScriptRun run = functions.scripts().running();
        if (run == null) {
            throw Call.fail(ScriptCommands.NOTBUSY);
        }
        if (run.hasWritten()) {
            throw Call.fail(ScriptCommands.UNKILLABLE);
        }
        if (!run.function) {
            throw Call.fail(Errors.BUSY); // Redis: an EVAL dies by SCRIPT KILL
        }
        run.kill();
        c.reply().ok();
    }

    private static void help(Call c) {
        HelpReply.write(c.reply(), "FUNCTION",
                "LOAD [REPLACE] <FUNCTION CODE>",
                "    Create a new library with the given library name and code.",
                "DELETE <LIBRARY NAME>",
                "    Delete the given library.",
                "LIST [LIBRARYNAME PATTERN] [WITHCODE]",
                "    Return general information on all the libraries:",
                "    * Library name",
                "    * The engine used to run the Library",
                "    * Library description",
                "    * Functions list",
                "    * Library code (if WITHCODE is given)",
                "    It also possible to get only function that matches a pattern using LIBRARYNAME argument.",
                "STATS",
                "    Return information about the current function running:",
                "    * Function name",
                "    * Command used to run the function",
                "    * Duration in MS that the function is running",
                "    If no function is running, return nil",
                "    In addition, returns a list of available engines.",
                "KILL",
                "    Kill the current running function.",
                "FLUSH [ASYNC|SYNC]",
                "    Delete all the libraries.",
                "    When called without the optional mode argument, the behavior is determined by the",
                "    lazyfree-lazy-user-flush configuration directive. Valid modes are:",
                "    * ASYNC: Asynchronously flush the libraries.",
                "    * SYNC: Synchronously flush the libraries.",
                "DUMP",
                "    Return a serialized payload representing the current libraries, can be restored using FUNCTION "
                        + "RESTORE command",
                "RESTORE <PAYLOAD> [FLUSH|APPEND|REPLACE]",
                "    Restore the libraries represented by the given payload, it is possible to give a restore policy "
                        + "to",
                "    control how to handle existing libraries (default APPEND):",
                "    * FLUSH: delete all existing libraries.",
                "    * APPEND: appends the restored libraries to the existing libraries. On collision, abort.",
                "    * REPLACE: appends the restored libraries to the existing libraries, On collision, replace the "
                        + "old",
                "      libraries with the new libraries (notice that even on this option there is a chance of "
                        + "failure",
                "      in case of functions name collision with another library).");
    }
}
