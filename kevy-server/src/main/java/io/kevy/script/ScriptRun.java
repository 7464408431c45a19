package io.kevy.script;

import io.kevy.engine.command.Call;
import org.luaj.vm2.LuaError;

/**
 * One running script or function: the EVAL or FCALL call it runs for (its locks, session, time snapshot, reply), its SHA1, whether
 * it is read-only (EVAL_RO, EVALSHA_RO), whether it has written yet, and the SCRIPT KILL request.
 *
 * <p>Used by the script's thread; {@link #kill} may come from any thread.
 */
final class ScriptRun {
    final Call call;
    /** The script's SHA1, or the function's name. */
    final String sha;
    final boolean readOnly;
    /** True for FCALL / FCALL_RO (FUNCTION KILL stops it, SCRIPT KILL does not). */
    final boolean function;
    /** The command that runs it, as sent (FUNCTION STATS; the call's own argv changes during redis.call). */
    final byte[][] argv;
    final long startNanos = System.nanoTime();
    private volatile boolean wrote;
    private volatile boolean killRequested;
    /** Set by the hook when the script filled the heap ({@link ScriptMemory}); raised as SCRIPT KILL is. */
    private boolean outOfMemory;
    /** The protocol of {@code redis.call}'s replies: 2 at each start, as Redis, until {@code redis.setresp}. */
    private int resp = 2;

    ScriptRun(Call call, String sha, boolean readOnly) {
        this(call, sha, readOnly, false);
    }

    ScriptRun(Call call, String name, boolean readOnly, boolean function) {
        this.call = call;
        this.sha = name;
        this.readOnly = readOnly;
        this.function = function;
        this.argv = call.argv();
    }

    int resp() {
        return resp;
    }

    /** {@code redis.setresp(version)}: 2 or 3, checked by the caller. */
    void resp(int version) {
        resp = version;
    }

    /** Records that a write command ran (SCRIPT KILL then answers UNKILLABLE). */
    void wrote() {
        wrote = true;
    }

    boolean hasWritten() {
        return wrote;
    }

    /** Asks the script to stop at its next hook check; the caller has checked {@link #hasWritten()}. */
    void kill() {
        killRequested = true;
    }

    /** Stops the script at its next hook check even when it has written (the engine closes). */
    void abort() {
        killRequested = true;
    }

    /** Stops the script with Lua's {@code not enough memory} at its next hook check (the hook's thread). */
    void outOfMemory() {
        outOfMemory = true;
    }

    /** True once the script must stop: killed, aborted or out of memory. */
    boolean killRequested() {
        return killRequested || outOfMemory;
    }

    /** Called by the hook: throws the error that stops the script when it must stop. */
    void checkInterrupt() {
        if (outOfMemory) {
            throw new LuaError(ScriptMemory.NOT_ENOUGH_MEMORY);
        }
        if (killRequested) {
            throw new LuaError(LuaReplyBuilder.errorTable(ScriptErrors.KILLED));
        }
    }
}
