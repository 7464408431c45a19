package io.kevy.script;

import static io.kevy.engine.command.CommandFlag.ALLOW_BUSY;
import static io.kevy.engine.command.CommandFlag.ALL_SHARDS;
import static io.kevy.engine.command.CommandFlag.LOADING;
import static io.kevy.engine.command.CommandFlag.NOSCRIPT;
import static io.kevy.engine.command.CommandFlag.NO_LOCK;
import static io.kevy.engine.command.CommandFlag.NO_MANDATORY_KEYS;
import static io.kevy.engine.command.CommandFlag.READONLY;
import static io.kevy.engine.command.CommandFlag.RUNS_SCRIPT;
import static io.kevy.engine.command.CommandFlag.SKIP_MONITOR;
import static io.kevy.engine.command.CommandFlag.STALE;
import static io.kevy.engine.command.CommandSpec.command;

import io.kevy.engine.command.Call;
import io.kevy.engine.command.CommandSpec;
import io.kevy.engine.command.CommandTable;
import io.kevy.engine.command.HelpReply;
import io.kevy.engine.command.KeyFinder;
import io.kevy.engine.error.ErrorReply;
import io.kevy.engine.text.Bytes;
import java.util.Locale;
import org.luaj.vm2.LuaError;

/**
 * EVAL, EVALSHA, EVAL_RO, EVALSHA_RO and SCRIPT LOAD | EXISTS | FLUSH | KILL | HELP, as Redis 7.0 (replies and
 * error texts). A script runs with every shard locked ({@link Scripts}); its reply follows Redis's Lua-to-RESP
 * rules ({@link LuaReplies}) and its errors Redis's shapes ({@link ScriptErrors}).
 *
 * <p>Argument errors, in Redis's order: numkeys not an integer ({@code ERR value is not an integer or out of
 * range}), greater than the arguments that follow ({@code ERR Number of keys can't be greater than number of
 * args}), negative ({@code ERR Number of keys can't be negative}); then an unknown SHA1 ({@code NOSCRIPT}) or a
 * body that does not compile ({@code ERR Error compiling script (new function): ...}) or whose shebang is bad
 * ({@link EvalShebang}); then, for a script with a shebang and without {@code no-writes}, the refusals of
 * {@link FunctionCommands#checkMayWrite} (EVAL_RO among them). None changes anything.
 *
 * <p>Frames: a script emits nothing of its own; each write it calls emits that write's frames (docs/cdc.md).
 */
public final class ScriptCommands {
    static final String GROUP = "scripting";
    private static final ErrorReply FLUSH_OPTION = ErrorReply.err("SCRIPT FLUSH only support SYNC|ASYNC option");
    static final ErrorReply NOTBUSY = ErrorReply.of("NOTBUSY No scripts in execution right now.");
    static final ErrorReply UNKILLABLE = ErrorReply.of("UNKILLABLE Sorry the script already executed write "
            + "commands against the dataset. You can either wait the script termination or kill the server in a "
            + "hard way using the SHUTDOWN NOSAVE command.");
    /** EVAL's keys: {@code numkeys} at 2, then that many keys (COMMAND GETKEYS; locking is all shards). */
    static final KeyFinder KEYS = argv -> {
        if (argv.length < 3) {
            return null;
        }
        long n;
        try {
            n = Long.parseLong(new String(argv[2], java.nio.charset.StandardCharsets.US_ASCII));
        } catch (NumberFormatException e) {
            return null;
        }
        if (n < 0 || n > argv.length - 3) {
            return null;
        }
        int[] pos = new int[(int) n];
        for (int i = 0; i < n; i++) {
            pos[i] = 3 + i;
        }
        return pos;
    };

    private ScriptCommands() {
    }

    /** Registers the scripting commands of {@code scripts} in {@code t}. */
    public static void register(CommandTable t, Scripts scripts) {
        t.add(eval("eval", "Execute a Lua script server side", "Depends on the script that is executed.",
                c -> eval(c, scripts, false)).flags(ALL_SHARDS).keyNotes(
                        "We cannot tell how the keys will be used so we assume the worst, RW and UPDATE")
                .keyFlags("RW", "access", "update").since("2.6.0"));
        t.add(eval("evalsha", "Execute a Lua script server side", "Depends on the script that is executed.",
                c -> evalsha(c, scripts, false)).keyFlags("RW", "access", "update").since("2.6.0"));
        t.add(eval("eval_ro", "Execute a read-only Lua script server side", "Depends on the script that is executed.",
                c -> eval(c, scripts, true)).flags(READONLY).keyNotes(
                        "We cannot tell how the keys will be used so we assume the worst, RO and ACCESS")
                .keyFlags("RO", "access").since("7.0.0"));
        t.add(eval("evalsha_ro", "Execute a read-only Lua script server side",
                "Depends on the script that is executed.", c -> evalsha(c, scripts, true)).flags(READONLY)
                .keyFlags("RO", "access").since("7.0.0"));
        t.add(command("script", -2).group(GROUP).since("2.6.0")
                .summary("A container for Lua scripts management commands").complexity("Depends on subcommand.")
                .subcommand(command("kill", 2).flags(NOSCRIPT, ALLOW_BUSY, NO_LOCK).since("2.6.0")
                        .summary("Kill the script currently in execution.").complexity("O(1)")
                        .tips("request_policy:all_shards", "response_policy:one_succeeded")
                        .handler(c -> kill(c, scripts)))
                .subcommand(command("help", 2).flags(LOADING, STALE, NO_LOCK).since("5.0.0")
                        .summary("Show helpful text about the different subcommands").complexity("O(1)")
                        .handler(ScriptCommands::help))
                .subcommand(command("flush", -2).flags(NOSCRIPT, NO_LOCK).since("2.6.0")
                        .summary("Remove all the scripts from the script cache.")
                        .complexity("O(N) with N being the number of scripts in cache")
                        .tips("request_policy:all_nodes", "response_policy:all_succeeded")
                        .handler(c -> flush(c, scripts)))
                .subcommand(command("load", 3).flags(NOSCRIPT, STALE, NO_LOCK).since("2.6.0")
                        .summary("Load the specified Lua script into the script cache.")
                        .complexity("O(N) with N being the length in bytes of the script body.")
                        .tips("request_policy:all_nodes", "response_policy:all_succeeded")
                        .handler(c -> load(c, scripts)))
                .subcommand(command("exists", -3).flags(NOSCRIPT, NO_LOCK).since("2.6.0")
                        .summary("Check existence of scripts in the script cache.")
                        .complexity("O(N) with N being the number of scripts to check (so checking a single "
                                + "script is an O(1) operation).")
                        .tips("request_policy:all_shards", "response_policy:agg_logical_and")
                        .handler(c -> exists(c, scripts))));
    }

    private static CommandSpec.Builder eval(String name, String summary, String complexity,
                                            io.kevy.engine.command.CommandHandler h) {
        return command(name, -3).flags(NOSCRIPT, STALE, SKIP_MONITOR, NO_MANDATORY_KEYS, ALL_SHARDS, RUNS_SCRIPT)
                .keys(0, 0, 0, KEYS).keynum(2).group(GROUP).summary(summary).complexity(complexity).handler(h);
    }

    /** numkeys (argument 2), checked against the arguments as Redis's {@code evalGenericCommand}. */
    private static int numkeys(Call c) {
        long n = c.longArg(2);
        if (n > c.argc() - 3) {
            throw Call.fail(ScriptErrors.TOO_MANY_KEYS);
        }
        if (n < 0) {
            throw Call.fail(ScriptErrors.NEGATIVE_KEYS);
        }
        return (int) n;
    }

    private static void eval(Call c, Scripts scripts, boolean readOnly) {
        int numkeys = numkeys(c);
        byte[] body = c.arg(1);
        String sha = Sha1.hex(body);
        Scripts.Script s;
        try {
            s = scripts.compiled(sha, body);
        } catch (LuaError e) {
            throw Call.fail(ScriptErrors.compile(e));
        } catch (IllegalArgumentException e) {
            throw Call.fail(ErrorReply.err(e.getMessage()));
        }
        run(c, scripts, sha, s, numkeys, readOnly);
    }

    /**
     * Redis's {@code evalShaCommand}: a SHA that is not 40 characters long is NOSCRIPT before anything else, then
     * numkeys is checked, then the cache looked up.
     */
    private static void evalsha(Call c, Scripts scripts, boolean readOnly) {
        if (c.arg(1).length != 40) {
            throw Call.fail(ScriptErrors.NOSCRIPT);
        }
        int numkeys = numkeys(c);
        String sha = Bytes.str(c.arg(1)).toLowerCase(Locale.ROOT);
        Scripts.Script s = scripts.cached(sha);
        if (s == null) {
            throw Call.fail(ScriptErrors.NOSCRIPT);
        }
        run(c, scripts, sha, s, numkeys, readOnly);
    }

    /**
     * Runs {@code s}: a script with a shebang is first checked as Redis's {@code scriptPrepareForRun} checks a
     * function (unless it declares {@code no-writes}: refused by EVAL_RO, on a read-only replica, while the disk
     * fails), and runs read-only with {@code no-writes}.
     */
    private static void run(Call c, Scripts scripts, String sha, Scripts.Script s, int numkeys, boolean readOnly) {
        if (s.shebang() != null && !s.noWrites()) {
            FunctionCommands.checkMayWrite(c, readOnly);
        }
        scripts.run(c, sha, s.function(), numkeys, readOnly || s.noWrites());
    }

    private static void load(Call c, Scripts scripts) {
        try {
            c.reply().bulk(scripts.load(c.arg(2)));
        } catch (LuaError e) {
            throw Call.fail(ScriptErrors.compile(e));
        } catch (IllegalArgumentException e) {
            throw Call.fail(ErrorReply.err(e.getMessage()));
        }
    }

    private static void exists(Call c, Scripts scripts) {
        c.reply().array(c.argc() - 2);
        for (int i = 2; i < c.argc(); i++) {
            String sha = Bytes.str(c.arg(i)).toLowerCase(Locale.ROOT);
            c.reply().integer(c.arg(i).length == 40 && scripts.cached(sha) != null ? 1 : 0);
        }
    }

    private static void flush(Call c, Scripts scripts) {
        if (c.argc() > 3 || (c.argc() == 3 && !c.argIs(2, "sync") && !c.argIs(2, "async"))) {
            throw Call.fail(FLUSH_OPTION);
        }
        scripts.flush();
        c.reply().ok();
    }

    private static void kill(Call c, Scripts scripts) {
        ScriptRun run = scripts.running();
        if (run == null) {
            throw Call.fail(NOTBUSY);
        }
        if (run.hasWritten()) {
            throw Call.fail(UNKILLABLE);
        }
        if (run.function) {
            throw Call.fail(io.kevy.engine.error.Errors.BUSY_FUNCTION); // Redis: a function dies by FUNCTION KILL
        }
        run.kill();
        c.reply().ok();
    }

    private static void help(Call c) {
        HelpReply.write(c.reply(), "SCRIPT",
                "DEBUG (YES|SYNC|NO)",
                "    Set the debug mode for subsequent scripts executed.",
                "EXISTS <sha1> [<sha1> ...]",
                "    Return information about the existence of the scripts in the script cache.",
                "FLUSH [ASYNC|SYNC]",
                "    Flush the Lua scripts cache. Very dangerous on replicas.",
                "    When called without the optional mode argument, the behavior is determined by the",
                "    lazyfree-lazy-user-flush configuration directive. Valid modes are:",
                "    * ASYNC: Asynchronously flush the scripts cache.",
                "    * SYNC: Synchronously flush the scripts cache.",
                "KILL",
                "    Kill the currently executing Lua script.",
                "LOAD <script>",
                "    Load a script into the scripts cache without executing it.");
    }
}
