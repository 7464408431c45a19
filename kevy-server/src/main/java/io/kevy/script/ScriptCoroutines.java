package io.kevy.script;

import java.util.ArrayList;
import java.util.List;
import org.luaj.vm2.Globals;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaThread;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.lib.VarArgFunction;

/**
 * The {@code coroutine} library's {@code create}, {@code resume} and {@code wrap}, bounded. luaj runs each
 * coroutine on a Java thread of its own, started at its first resume and parked while it is suspended; luaj ends
 * a suspended coroutine's thread only after the garbage collector has dropped the coroutine (and up to 5 s more),
 * so a script leaving thousands of coroutines suspended held thousands of threads, which no heap cap bounds.
 *
 * <ul>
 *   <li>At most {@link #MAX_LIVE} coroutines of a Lua state are alive (created and not dead) at a time;
 *       {@code coroutine.create} and {@code coroutine.wrap} past it fail with {@link #TOO_MANY}.</li>
 *   <li>{@link #closeAll} (the runner calls it when a script, function or library load ends, killed or not)
 *       ends the thread of every suspended coroutine and waits for it: a coroutine does not outlive the run
 *       that started it (a later resume says {@code cannot resume dead coroutine}).</li>
 *   <li>A coroutine's error reaches {@code resume} and {@code wrap} as Lua 5.1 hands it over, not as luaj's
 *       text: an error table stays a table (Redis's error replies, SCRIPT KILL's error), a string reads
 *       {@code user_script:1: msg}, and {@code wrap} raises it again with the caller's position in front of a
 *       string (Lua's {@code auxwrap}).</li>
 * </ul>
 *
 * <p>Not thread-safe: used by the one script a Lua state runs at a time (the runner's lock); a coroutine's own
 * thread runs only while the thread that resumed it waits, as luaj hands control over.
 */
final class ScriptCoroutines {
    /** Coroutines of one Lua state alive (created, not dead) at once: each started one holds a Java thread. */
    static final int MAX_LIVE = 256;
    /** The error of a {@code create} or {@code wrap} past {@link #MAX_LIVE}. */
    static final String TOO_MANY = "too many coroutines (kevy allows " + MAX_LIVE + " alive at a time)";
    /** How long {@link #closeAll} waits for the threads it ends, in total, ms. */
    static final long CLOSE_WAIT_MS = 5000;

    private final Globals globals;
    /** The running Lua function's position ({@link ScriptHook#where}), for {@code wrap}'s errors. */
    private final java.util.function.Supplier<String> where;
    /** Stops the script with {@code not enough memory} ({@link ScriptHook#allocationFailed}). */
    private final java.util.function.Supplier<LuaError> allocationFailed;
    /** The coroutines not known dead yet, oldest first. */
    private final List<Coroutine> live = new ArrayList<>();

    ScriptCoroutines(Globals globals, java.util.function.Supplier<String> where,
                     java.util.function.Supplier<LuaError> allocationFailed) {
        this.globals = globals;
        this.where = where;
        this.allocationFailed = allocationFailed;
    }

    /** Replaces {@code create}, {@code resume} and {@code wrap} in {@code lib}, luaj's coroutine table. */
    void install(LuaTable lib) {
        lib.set("create", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                return create(args.checkfunction(1));
            }
        });
        lib.set("resume", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                return resume(args.checkthread(1), args.subargs(2));
            }
        });
        lib.set("wrap", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                Coroutine co = create(args.checkfunction(1));
                return new VarArgFunction() {
                    @Override
                    public Varargs invoke(Varargs a) {
                        String caller = where.get(); // the wrapper's caller ran the last instruction so far
                        Varargs r = resume(co, a);
                        if (r.arg1().toboolean()) {
                            return r.subargs(2);
                        }
                        LuaValue err = r.arg(2);
                        if (err.isstring()) { // Lua's auxwrap: the caller's position before a string
                            throw new ScriptErrors.Unpositioned(LuaValue.valueOf(caller).concat(err.strvalue()));
                        }
                        throw new LuaError(err);
                    }
                };
            }
        });
    }

    private Coroutine create(LuaValue body) {
        prune();
        if (live.size() >= MAX_LIVE) {
            throw new LuaError(TOO_MANY);
        }
        Coroutine co = new Coroutine(globals, new Slot(), body, allocationFailed);
        live.add(co);
        return co;
    }

    private static Varargs resume(LuaThread t, Varargs args) {
        Varargs r = t.resume(args);
        if (t instanceof Coroutine co && !r.arg1().toboolean() && co.slot.error != null) {
            LuaValue err = co.slot.error;
            co.slot.error = null;
            return LuaValue.varargsOf(LuaValue.FALSE, err);
        }
        return r;
    }

    /**
     * Ends every coroutine still alive: the thread of each suspended one is interrupted (luaj then unwinds it and
     * marks it dead) and waited for, up to {@link #CLOSE_WAIT_MS} in all; one never resumed is only marked dead.
     * Called with no coroutine running (the run is over).
     */
    void closeAll() {
        prune();
        if (live.isEmpty()) {
            return;
        }
        for (Coroutine co : live) {
            Thread t = co.slot.carrier;
            if (t != null) {
                t.interrupt();
            } else if (co.state.status == LuaThread.STATUS_INITIAL) {
                co.state.status = LuaThread.STATUS_DEAD;
            }
        }
        long deadline = System.nanoTime() + CLOSE_WAIT_MS * 1_000_000L;
        boolean interrupted = false;
        for (Coroutine co : live) {
            Thread t = co.slot.carrier;
            while (t != null && t.isAlive()) {
                long left = (deadline - System.nanoTime()) / 1_000_000L;
                if (left <= 0) {
                    break; // it ends by itself once it reaches the interrupt; not worth stalling the runner for
                }
                try {
                    t.join(left);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        live.clear();
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private void prune() {
        live.removeIf(co -> co.state.status == LuaThread.STATUS_DEAD);
    }

    /**
     * A coroutine whose body records, in its {@link Slot}, its Java thread when it starts (so {@link #closeAll} can
     * end it) and the error that ended it, as Lua's value (luaj's resume keeps only a Java string).
     */
    private static final class Coroutine extends LuaThread {
        final Slot slot;

        Coroutine(Globals globals, Slot slot, LuaValue body, java.util.function.Supplier<LuaError> allocationFailed) {
            super(globals, new Body(slot, body, allocationFailed));
            this.slot = slot;
        }
    }

    /**
     * What a coroutine's thread tells the runner. Held apart from the {@link Coroutine} so that its running thread
     * does not keep the coroutine reachable (luaj's own end of an unreachable coroutine still works).
     */
    private static final class Slot {
        volatile Thread carrier;
        /** The error that ended the coroutine, as resume hands it over; cleared once handed over. */
        volatile LuaValue error;
    }

    /**
     * The function a coroutine's thread runs: the script's, after recording the thread; records its error (an
     * allocation that failed stops the script with {@code not enough memory}, never a Java exception's text).
     */
    private static final class Body extends VarArgFunction {
        private final Slot slot;
        private final LuaValue body;
        private final java.util.function.Supplier<LuaError> allocationFailed;

        Body(Slot slot, LuaValue body, java.util.function.Supplier<LuaError> allocationFailed) {
            this.slot = slot;
            this.body = body;
            this.allocationFailed = allocationFailed;
        }

        @Override
        public Varargs invoke(Varargs args) {
            slot.carrier = Thread.currentThread();
            try {
                return body.invoke(args);
            } catch (LuaError e) {
                LuaError err = ScriptErrors.allocationFailure(e) ? allocationFailed.get() : e;
                slot.error = ScriptErrors.caught(ScriptErrors.messageValue(err), false);
                throw err;
            } catch (NegativeArraySizeException e) {
                LuaError err = allocationFailed.get();
                slot.error = ScriptErrors.caught(ScriptErrors.messageValue(err), false);
                throw err;
            }
        }
    }
}
