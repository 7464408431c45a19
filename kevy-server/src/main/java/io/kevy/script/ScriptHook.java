package io.kevy.script;

import org.luaj.vm2.LuaClosure;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaFunction;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.lib.DebugLib;

/**
 * luaj's debug hook, used as Redis uses Lua's count hook: it bounds the call depth (a script recursing deeper
 * than {@link #MAX_DEPTH} Lua calls fails with {@code stack overflow}, as Lua does at its own limit, instead of
 * overflowing the Java thread's stack) and, every {@link #CHECK_EVERY} instructions, asks the running script's
 * {@link ScriptRun#checkInterrupt()} whether it must stop (SCRIPT KILL), after asking {@link ScriptMemory} whether
 * the heap is full.
 *
 * <p>Its {@code debug} table is not exposed to scripts. Used by one script at a time (the runner's lock).
 */
final class ScriptHook extends DebugLib {
    /**
     * Lua-to-Lua call depth kevy allows: Lua 5.1 allows about 200 nested C calls and 20000 Lua calls; a luaj
     * call costs Java stack, and 1000 levels stay well inside a 1 MB thread stack with the command handlers a
     * {@code redis.call} at the deepest level runs.
     */
    static final int MAX_DEPTH = 1000;
    static final int CHECK_EVERY = 1 << 14;

    private int depth;
    private int count;
    private ScriptRun run;
    /** The Lua functions being run, innermost last (Java functions leave null), and the last instruction run. */
    private final LuaClosure[] closures = new LuaClosure[MAX_DEPTH + 2];
    private LuaClosure lastClosure;
    private int lastPc;
    private boolean killing;
    /** A library load's deadline (System.nanoTime), or 0: no load, or no limit. */
    private long loadDeadline;
    private final ScriptMemory memory = new ScriptMemory();

    /** The memory cap the hook checks, also for the library functions that allocate much at once. */
    ScriptMemory memory() {
        return memory;
    }

    /**
     * Stops the running script with {@code not enough memory} when {@code bytes} more would fill the heap
     * ({@link ScriptMemory}); for a library function about to allocate them.
     */
    void reserve(long bytes) {
        if (run != null && memory.refuses(bytes)) {
            run.outOfMemory();
            killing = true;
            run.checkInterrupt();
        }
    }

    /**
     * An allocation the JVM refused or could not even size (a result longer than a Java array holds, which luaj
     * reports as a {@link NegativeArraySizeException}): the running script stops with {@code not enough memory}
     * as at the memory cap, and every later instruction raises again, so a pcall cannot swallow it.
     *
     * @return the error to throw in its place
     */
    LuaError allocationFailed() {
        if (run != null) {
            run.outOfMemory();
            killing = true;
        }
        return new LuaError(ScriptMemory.NOT_ENOUGH_MEMORY);
    }

    void start(ScriptRun run) {
        this.loadDeadline = 0;
        this.run = run;
        this.depth = 0;
        this.count = 0;
        this.lastClosure = null;
        this.killing = false;
    }

    /** The source line of the last Lua instruction run, or -1: where an error without a position arose. */
    int currentLine() {
        LuaClosure c = lastClosure;
        if (c == null || c.p.lineinfo == null || lastPc < 0 || lastPc >= c.p.lineinfo.length) {
            return -1;
        }
        return c.p.lineinfo[lastPc];
    }

    /**
     * Lua's {@code luaL_where(L, 1)} for the Lua function that ran the last instruction: {@code user_script:5: }
     * ({@code user_function} for a library's), or empty when unknown. Read by a library function about to raise
     * an error with its caller's position.
     */
    String where() {
        int line = currentLine();
        if (line < 0 || lastClosure.p.source == null) {
            return "";
        }
        String source = lastClosure.p.source.tojstring();
        return (source.startsWith("@") ? source.substring(1) : source) + ":" + line + ": ";
    }

    /**
     * Starts a library load (no script runs): the depth limit applies, and after {@code timeoutMs} (0: never)
     * the load fails with {@code FUNCTION LOAD timeout} (Redis's {@code luaEngineLoadHook}).
     */
    void startLoad(long timeoutMs) {
        start(null);
        loadDeadline = timeoutMs > 0 ? System.nanoTime() + timeoutMs * 1_000_000L : 0;
    }

    void stop() {
        this.run = null;
        this.loadDeadline = 0;
    }

    @Override
    public void onCall(LuaFunction f) {
        enter(null);
    }

    @Override
    public void onCall(LuaClosure c, Varargs varargs, LuaValue[] stack) {
        enter(c);
    }

    private void enter(LuaClosure c) {
        if (depth >= 0 && depth < closures.length) {
            closures[depth] = c;
        }
        if (++depth > MAX_DEPTH) {
            depth = 0; // the unwinding returns decrement below zero; start() resets it for the next script
            throw new LuaError("stack overflow");
        }
    }

    @Override
    public void onReturn() {
        depth--;
    }

    @Override
    public void onInstruction(int pc, Varargs v, int top) {
        if (depth > 0 && depth <= closures.length && closures[depth - 1] != null) {
            lastClosure = closures[depth - 1];
        }
        lastPc = pc;
        if ((killing || (++count & (CHECK_EVERY - 1)) == 0) && run != null) {
            if (!killing && memory.exhausted()) {
                run.outOfMemory();
            }
            // once killed, every instruction raises again, so a pcall cannot swallow the kill (as Redis's hook)
            killing = run.killRequested();
            run.checkInterrupt();
        }
        if (loadDeadline != 0 && (killing || (count & (CHECK_EVERY - 1)) == 0)
                && System.nanoTime() - loadDeadline > 0) {
            killing = true; // every later instruction raises again
            throw new LuaError(LuaReplyBuilder.errorTable("ERR FUNCTION LOAD timeout"));
        }
    }
}
