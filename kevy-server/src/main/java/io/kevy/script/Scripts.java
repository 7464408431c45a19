package io.kevy.script;

import io.kevy.engine.command.Call;
import io.kevy.engine.error.ErrorReply;
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
 * SCRIPT LOAD add, SCRIPT FLUSH empties) and the runner, which runs one script at a time on the one Lua state
 * ({@link LuaSandbox}).
 *
 * <p><b>Atomicity.</b> {@link #run} is called by EVAL with every shard locked by the dispatcher (EVAL is an
 * all-shards command, as FLUSHALL), so the script's {@code redis.call}s see and change the data as one critical
 * section; their frames are emitted in order inside it, and a feed reader sees all of them or none. Locking
 * only the declared keys' shards would be cheaper, but Redis scripts may reach keys they do not declare.
 *
 * <p><b>Busy scripts.</b> A script running longer than {@code busy-reply-threshold} (CONFIG, alias
 * {@code lua-time-limit}, default 5000 ms) turns the engine busy: other clients' commands without the
 * {@code allow-busy} flag answer {@code -BUSY} before they wait for a lock, and SCRIPT KILL (which takes no lock)
 * stops a script that has not written yet, through the instruction hook ({@link ScriptHook}). A client on the
 * script's own event loop waits until the script ends: kevy runs the script on the loop that read EVAL.
 *
 * <p>Thread-safe: the cache is concurrent; compiling and running hold the runner's lock.
 */
public final class Scripts {
    private final ReentrantLock lock = new ReentrantLock();
    private final Map<String, LuaFunction> cache = new ConcurrentHashMap<>();
    private volatile ScriptRun running;
    private final LuaSandbox sandbox = new LuaSandbox(() -> running);

    /** Compiles {@code body} and caches it under its SHA1 (lower-case hex), which it returns. */
    String load(byte[] body) {
        String sha = Sha1.hex(body);
        compiled(sha, body);
        return sha;
    }

    /** The cached function of {@code body}, compiling and caching it when new. */
    LuaFunction compiled(String sha, byte[] body) {
        LuaFunction f = cache.get(sha);
        if (f != null) {
            return f;
        }
        lock.lock();
        try {
            f = sandbox.compile(body);
        } finally {
            lock.unlock();
        }
        cache.put(sha, f);
        return f;
    }

    /** The cached function named {@code sha} (lower-case), or null. */
    LuaFunction cached(String sha) {
        return cache.get(sha);
    }

    /** SCRIPT FLUSH. */
    void flush() {
        cache.clear();
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
        ScriptRun run = new ScriptRun(c, sha, readOnly);
        try {
            sandbox.setGlobal("KEYS", strings(c, 3, numkeys));
            sandbox.setGlobal("ARGV", strings(c, 3 + numkeys, c.argc() - 3 - numkeys));
            sandbox.hook().start(run);
            running = run;
            long threshold = busyThresholdMs(c);
            if (threshold > 0) {
                c.engine().scriptStarted(run.startNanos + threshold * 1_000_000L);
            }
            Varargs result;
            try {
                result = f.invoke();
            } catch (LuaError e) {
                fail(c, ScriptErrors.runtime(e, sha, sandbox.hook().currentLine()));
                return;
            } catch (StackOverflowError e) { // the hook's depth limit should have caught it first
                fail(c, ErrorReply.of("ERR user_script:?: stack overflow script: " + sha + ", on @user_script:?."));
                return;
            }
            LuaReplies.write(result.arg1(), c.reply(), run.resp());
        } finally {
            c.engine().scriptEnded();
            running = null;
            sandbox.hook().stop();
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
