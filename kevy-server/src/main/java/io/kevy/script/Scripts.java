package io.kevy.script;

import io.kevy.engine.command.Call;
import io.kevy.engine.error.ErrorReply;
import io.kevy.engine.error.Errors;
import java.util.function.Supplier;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaFunction;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.Varargs;

/**
 * One instance's scripts: the script cache (SHA1 → compiled function, Redis's {@code lua_scripts}: EVAL and
 * SCRIPT LOAD add, SCRIPT FLUSH empties) and the runner, which runs one script or library function at a time,
 * EVAL's on one Lua state and FUNCTION's on another ({@link LuaSandbox}; Redis keeps the two apart too, so a
 * function never sees EVAL's {@code KEYS}/{@code ARGV} globals).
 *
 * <p><b>Atomicity.</b> {@link #run} is called by EVAL with every shard locked by the dispatcher (EVAL is an
 * all-shards command, as FLUSHALL), so the script's {@code redis.call}s see and change the data as one critical
 * section; their frames are emitted in order inside it, and a feed reader sees all of them or none. Locking
 * only the declared keys' shards was measured and was not faster (docs/design.md), and Redis scripts may reach
 * keys they do not declare.
 *
 * <p><b>Busy scripts.</b> A script running longer than {@code busy-reply-threshold} (CONFIG, alias
 * {@code lua-time-limit}, default 5000 ms) turns the engine busy: other clients' commands without the
 * {@code allow-busy} flag answer {@code -BUSY} before they wait for a lock, and SCRIPT KILL (which takes no lock)
 * stops a script that has not written yet, through the instruction hook ({@link ScriptHook}). A network client's
 * script runs on the engine's script thread ({@link io.kevy.engine.ScriptGate}), not on the event loop that read
 * EVAL, so the clients of that loop get their BUSY replies and can send SCRIPT KILL too.
 *
 * <p>Thread-safe: the cache is concurrent; compiling and running hold the runner's lock.
 */
public final class Scripts {
    private final ReentrantLock lock = new ReentrantLock();
    private final Map<String, Script> cache = new ConcurrentHashMap<>();
    private volatile ScriptRun running;
    private final LuaSandbox sandbox = new LuaSandbox(() -> running);
    /** The Lua state of FUNCTION libraries: Redis runs them in a state of their own, apart from EVAL's. */
    private final LuaSandbox functionSandbox = new LuaSandbox(() -> running);

    /**
     * A cached script: its compiled body and its shebang ({@link EvalShebang}), null when it has none (Redis's
     * compatibility mode).
     */
    record Script(LuaFunction function, EvalShebang shebang) {
        /** True when the script declares {@code no-writes}: it runs read-only. */
        boolean noWrites() {
            return shebang != null && shebang.noWrites();
        }
    }

    /**
     * Compiles {@code body} and caches it under its SHA1 (lower-case hex), which it returns.
     *
     * @throws LuaError the compile error
     * @throws IllegalArgumentException a bad shebang, Redis's text
     */
    String load(byte[] body) {
        String sha = Sha1.hex(body);
        compiled(sha, body);
        return sha;
    }

    /**
     * The cached script of {@code body}, compiling and caching it when new: its shebang is read first, then the
     * code after the shebang's line is compiled (the line's newline kept, so line numbers count it), as Redis's
     * {@code luaCreateFunction}.
     *
     * @throws LuaError the compile error
     * @throws IllegalArgumentException a bad shebang, Redis's text
     */
    Script compiled(String sha, byte[] body) {
        Script s = cache.get(sha);
        if (s != null) {
            return s;
        }
        EvalShebang shebang = EvalShebang.parse(body);
        byte[] code = shebang == null ? body : java.util.Arrays.copyOfRange(body, shebang.length(), body.length);
        lock.lock();
        try {
            s = new Script(sandbox.compile(code), shebang);
        } finally {
            lock.unlock();
        }
        cache.put(sha, s);
        return s;
    }

    /** The cached script named {@code sha} (lower-case), or null. */
    Script cached(String sha) {
        return cache.get(sha);
    }

    /**
     * SCRIPT FLUSH: empties the cache and puts EVAL's {@code cjson} settings back to their defaults (Redis makes a
     * new Lua state, the only per-state thing a script can change there).
     */
    void flush() {
        cache.clear();
        lock.lock();
        try {
            sandbox.resetCjson();
        } finally {
            lock.unlock();
        }
    }

    /** The running script, or null (SCRIPT KILL). */
    ScriptRun running() {
        return running;
    }

    /**
     * Runs {@code f} for the EVAL {@code c} (every shard locked by the dispatcher), with {@code KEYS} and
     * {@code ARGV} taken from {@code c}'s arguments after numkeys, writing the script's reply (or its error) to
     * {@code c.reply()}.
     */
    void run(Call c, String sha, LuaFunction f, int numkeys, boolean readOnly) {
        lock.lock();
        try {
            sandbox.setGlobal("KEYS", strings(c, 3, numkeys));
            sandbox.setGlobal("ARGV", strings(c, 3 + numkeys, c.argc() - 3 - numkeys));
            execute(c, new ScriptRun(c, sha, readOnly), sandbox, "user_script", f::invoke, Errors.BUSY);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Runs the library function {@code fn} for the FCALL or FCALL_RO {@code c} (every shard locked by the
     * dispatcher), passing the keys and the arguments after numkeys as its two table arguments (Redis's
     * function calling convention), writing its reply (or its error) to {@code c.reply()}.
     *
     * @param readOnly true when writes are refused: FCALL_RO, or a function with the {@code no-writes} flag
     */
    void call(Call c, LibraryFunction fn, int numkeys, boolean readOnly) {
        lock.lock();
        try {
            LuaTable keys = strings(c, 3, numkeys);
            LuaTable args = strings(c, 3 + numkeys, c.argc() - 3 - numkeys);
            execute(c, new ScriptRun(c, fn.name(), readOnly, true), functionSandbox, "user_function",
                    () -> fn.callback().invoke(keys, args), Errors.BUSY_FUNCTION);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Runs {@code body} on {@code sb} as the running script {@code run} (the caller holds the runner's lock):
     * the hook, the busy threshold, and the reply or the error in Redis's shape for {@code chunk}.
     */
    private void execute(Call c, ScriptRun run, LuaSandbox sb, String chunk, Supplier<Varargs> body,
                         ErrorReply busy) {
        try {
            sb.hook().start(run);
            running = run;
            c.engine().scriptStarted(run.startNanos, busyThresholdMs(c), run::abort, busy);
            Varargs result;
            try {
                result = body.get();
            } catch (LuaError e) {
                fail(c, ScriptErrors.runtime(ScriptErrors.allocationFailure(e)
                        ? new LuaError(ScriptMemory.NOT_ENOUGH_MEMORY) : e, run.sha, sb.hook().currentLine(), chunk));
                return;
            } catch (OutOfMemoryError | NegativeArraySizeException e) { // one allocation the heap could not hold
                // (or one too long for a Java array): nothing was allocated
                fail(c, ScriptErrors.runtime(new LuaError(ScriptMemory.NOT_ENOUGH_MEMORY), run.sha,
                        sb.hook().currentLine(), chunk));
                return;
            } catch (org.luaj.vm2.OrphanedThread e) { // interrupted waiting for a coroutine: the engine closes
                fail(c, ScriptErrors.runtime(new LuaError(LuaReplyBuilder.errorTable(ScriptErrors.KILLED)), run.sha,
                        sb.hook().currentLine(), chunk));
                return;
            } catch (StackOverflowError e) { // the hook's depth limit should have caught it first
                fail(c, ErrorReply.of("ERR " + chunk + ":?: stack overflow script: " + run.sha + ", on @" + chunk
                        + ":?."));
                return;
            }
            LuaReplies.write(result.arg1(), c.reply(), run.resp());
        } finally {
            sb.finish(); // a coroutine's thread ends before the reply
            c.engine().scriptEnded();
            running = null;
        }
    }

    /**
     * Runs {@code action} on the functions' Lua state under the runner's lock (a library load: no script runs
     * meanwhile, and the state is single-threaded).
     */
    <T> T withFunctionState(java.util.function.Function<LuaSandbox, T> action) {
        lock.lock();
        try {
            return action.apply(functionSandbox);
        } finally {
            lock.unlock();
        }
    }

    /** CONFIG's {@code busy-reply-threshold} (alias {@code lua-time-limit}), ms; 0: never busy. */
    private static long busyThresholdMs(Call c) {
        try {
            return Long.parseLong(c.engine().runtimeConfig().get("busy-reply-threshold"));
        } catch (RuntimeException e) {
            return 5000; // Redis's default
        }
    }

    private static void fail(Call c, ErrorReply e) {
        c.engine().countError(e);
        c.reply().error(e);
        c.markFailed();
    }

    private static LuaTable strings(Call c, int from, int n) {
        LuaTable t = new LuaTable(n, 0);
        for (int i = 0; i < n; i++) {
            t.rawset(i + 1, LuaString.valueUsing(c.arg(from + i).clone()));
        }
        return t;
    }
}
