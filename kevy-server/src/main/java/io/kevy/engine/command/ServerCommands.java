package io.kevy.engine.command;

import static io.kevy.engine.command.CommandFlag.ADMIN;
import static io.kevy.engine.command.CommandFlag.ALLOW_BUSY;
import static io.kevy.engine.command.CommandFlag.ALL_SHARDS;
import static io.kevy.engine.command.CommandFlag.FAST;
import static io.kevy.engine.command.CommandFlag.LOADING;
import static io.kevy.engine.command.CommandFlag.NOSCRIPT;
import static io.kevy.engine.command.CommandFlag.NO_LOCK;
import static io.kevy.engine.command.CommandFlag.NO_MULTI;
import static io.kevy.engine.command.CommandFlag.READONLY;
import static io.kevy.engine.command.CommandFlag.STALE;
import static io.kevy.engine.command.CommandFlag.WRITE;
import static io.kevy.engine.command.CommandSpec.command;
import io.kevy.engine.error.ErrorReply;
import io.kevy.engine.error.Errors;
import io.kevy.resp.ReplySink;

/**
 * Server commands (Redis 7.0): DBSIZE, FLUSHALL, FLUSHDB, TIME, LASTSAVE, SHUTDOWN (SCRIPT and FUNCTION are
 * {@code io.kevy.script.ScriptCommands} and {@code io.kevy.script.FunctionCommands}).
 * The other server families register from here: CLIENT ({@link ClientCommands}), CONFIG ({@link ConfigCommands}),
 * INFO ({@link InfoCommand}), COMMAND ({@link CommandCommands}), DEBUG ({@link DebugCommands}), MEMORY ({@link MemoryCommands}).
 *
 * <p>kevy differences: TIME has
 * millisecond resolution (it reads the engine's clock); SHUTDOWN NOW and FORCE change nothing (no replicas) and
 * ABORT always answers "No shutdown in progress." (a shutdown starts at once).
 */
final class ServerCommands {
    static final ErrorReply NO_SHUTDOWN = ErrorReply.err("No shutdown in progress.");

    private ServerCommands() {
    }

    static void register(CommandTable t) {
        ClientCommands.register(t);
        ConfigCommands.register(t);
        InfoCommand.register(t);
        CommandCommands.register(t);
        DebugCommands.register(t);
        MemoryCommands.register(t);
        t.add(command("dbsize", 1).flags(READONLY, FAST, NO_LOCK).group("server").since("1.0.0")
                .summary("Return the number of keys in the selected database").complexity("O(1)").acl("keyspace")
                .tips("request_policy:all_shards", "response_policy:agg_sum")
                .handler(c -> c.reply().integer(c.engine().dbSize())));
        t.add(flush("flushall", "Remove all keys from all databases (kevy: every shard starts a new feed generation; "
                + "no frame)", "O(N) where N is the total number of keys in all databases"));
        t.add(flush("flushdb", "Remove all keys from the current database (as FLUSHALL: kevy has one database)",
                "O(N) where N is the number of keys in the selected database"));
        t.add(command("time", 1).flags(LOADING, STALE, FAST).group("server").since("2.6.0")
                .summary("Return the current server time").complexity("O(1)").tips("nondeterministic_output")
                .handler(ServerCommands::time));
        t.add(command("lastsave", 1).flags(LOADING, STALE, FAST).group("server").since("1.0.0")
                .summary("Get the UNIX time stamp of the last successful save to disk").complexity("O(1)")
                .acl("admin", "dangerous").tips("nondeterministic_output")
                .handler(c -> c.reply().integer(c.engine().lastSaveSeconds())));
        t.add(command("shutdown", -1).flags(ADMIN, NOSCRIPT, LOADING, STALE, NO_MULTI, ALLOW_BUSY).group("server")
                .since("1.0.0").summary("Synchronously save the dataset to disk and then shut down the server")
                .complexity("O(N) when saving, where N is the total number of keys in all databases when saving "
                        + "data, otherwise O(1)")
                .handler(ServerCommands::shutdown));
    }

    private static CommandSpec.Builder flush(String name, String summary, String complexity) {
        return command(name, -1).flags(WRITE, ALL_SHARDS).group("server").since("1.0.0").summary(summary)
                .complexity(complexity).acl("keyspace", "dangerous")
                .tips("request_policy:all_shards", "response_policy:all_succeeded").handler(ServerCommands::flush);
    }

    /** FLUSHALL/FLUSHDB [ASYNC|SYNC]: empties every shard; no frame (feed contract §5, new generations). */
    private static void flush(Call c) {
        if (c.argc() > 2 || (c.argc() == 2 && !c.argIs(1, "async") && !c.argIs(1, "sync"))) {
            throw Call.fail(Errors.SYNTAX);
        }
        c.engine().flushAllLocked();
        c.reply().ok();
    }

    /** TIME: the clock now in seconds and microseconds, read at each call (in a script too, as Redis 7.0). */
    private static void time(Call c) {
        long now = c.engine().clock().micros();
        ReplySink r = c.reply();
        r.array(2);
        r.bulkLong(Math.floorDiv(now, 1_000_000L));
        r.bulkLong(Math.floorMod(now, 1_000_000L));
    }

    /** SHUTDOWN [NOSAVE|SAVE] [NOW] [FORCE] [ABORT]; on success there is no reply: the connection closes. */
    private static void shutdown(Call c) {
        boolean save = false;
        boolean nosave = false;
        boolean abort = false;
        boolean other = false;
        for (int i = 1; i < c.argc(); i++) {
            if (c.argIs(i, "nosave")) {
                nosave = true;
            } else if (c.argIs(i, "save")) {
                save = true;
            } else if (c.argIs(i, "now") || c.argIs(i, "force")) {
                other = true;
            } else if (c.argIs(i, "abort")) {
                abort = true;
            } else {
                throw Call.fail(Errors.SYNTAX);
            }
        }
        if ((abort && (save || nosave || other)) || (save && nosave)) {
            throw Call.fail(Errors.SYNTAX);
        }
        if (abort) {
            throw Call.fail(NO_SHUTDOWN);
        }
        if (!nosave && c.engine().scriptBusy()) { // Redis 7.0's shutdownCommand: only NOSAVE stops a busy server
            throw Call.fail(c.engine().scriptBusyReply());
        }
        String err = c.engine().host().shutdown(save ? Boolean.TRUE : nosave ? Boolean.FALSE : null);
        if (err != null) {
            throw Call.fail(ErrorReply.of(err));
        }
        c.closeAfterReply();
    }

    /**
     * Redis's {@code addReplySubcommandSyntaxError}: {@code ERR unknown subcommand or wrong number of arguments
     * for '<sub as given>'. Try <CONTAINER> HELP.}
     */
    static ErrorReply subcommandSyntaxError(Call c) {
        String container = c.spec().container() == null ? c.spec().name() : c.spec().container();
        return ErrorReply.err("unknown subcommand or wrong number of arguments for '" + latin1(c.arg(1), 128)
                + "'. Try " + container.toUpperCase(java.util.Locale.ROOT) + " HELP.");
    }

    /** Argument bytes for an error text, at most {@code max}, one Latin-1 character per byte (see ErrorReply). */
    static String latin1(byte[] b, int max) {
        return new String(b, 0, Math.min(max, b.length), java.nio.charset.StandardCharsets.ISO_8859_1);
    }
}
