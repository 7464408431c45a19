package io.kevy.script;

import io.kevy.engine.command.Call;
import org.luaj.vm2.LuaError;

/**
 * One running script: the EVAL call it runs for (its locks, session, time snapshot, reply), its SHA1, whether
 * it is read-only (EVAL_RO, EVALSHA_RO), whether it has written yet, and the SCRIPT KILL request.
 *
 * <p>Used by the script's thread; {@link #kill} may come from any thread.
 */
final class ScriptRun {
    final Call call;
    final String sha;
    final boolean readOnly;
    final long startNanos = System.nanoTime();
    private volatile boolean wrote;
    private volatile boolean killRequested;
    /** The protocol of {@code redis.call}'s replies: 2 at each start, as Redis, until {@code redis.setresp}. */
    private int resp = 2;

    ScriptRun(Call call, String sha, boolean readOnly) {
        this.call = call;
        this.sha = sha;
        this.readOnly = readOnly;
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

    boolean killRequested() {
        return killRequested;
    }

    /** Called by the hook: throws the kill error when SCRIPT KILL asked for it. */
    void checkInterrupt() {
        if (killRequested) {
            throw new LuaError(LuaReplyBuilder.errorTable(ScriptErrors.KILLED));
        }
    }
}
