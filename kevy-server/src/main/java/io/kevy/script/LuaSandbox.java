package io.kevy.script;

import java.io.ByteArrayInputStream;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.function.Supplier;
import org.luaj.vm2.Globals;
import org.luaj.vm2.LoadState;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaFunction;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.compiler.LuaC;
import org.luaj.vm2.lib.BaseLib;
import org.luaj.vm2.lib.CoroutineLib;
import org.luaj.vm2.lib.OneArgFunction;
import org.luaj.vm2.lib.StringLib;
import org.luaj.vm2.lib.TableLib;
import org.luaj.vm2.lib.ThreeArgFunction;
import org.luaj.vm2.lib.TwoArgFunction;
import org.luaj.vm2.lib.VarArgFunction;
import org.luaj.vm2.lib.jse.JseMathLib;

/**
 * The Lua state scripts run in, shaped as Redis 7.0's: the base, table, string, math and coroutine libraries,
 * {@code redis}, {@code bit} and {@code cjson}, with Lua 5.1 names luaj (5.2) lacks ({@code unpack},
 * {@code table.getn}, {@code math.mod}, {@code string.gfind}, {@code _VERSION = "Lua 5.1"}); without
 * {@code os}, {@code io}, {@code debug}, {@code package}/{@code require}, {@code loadfile},
 * {@code dofile}, {@code print}, {@code setfenv}/{@code getfenv} (Redis 7.0 has none of them either). Coroutines
 * are bounded ({@link ScriptCoroutines}): luaj runs each on a Java thread.
 *
 * <p><b>Protected globals</b>, as Redis 7.0: a script sees the globals through an empty table whose reads of a
 * missing name fail with {@code Script attempted to access nonexistent global variable '<name>'} and whose
 * writes fail with {@code Attempt to modify a readonly table}; the library tables are read-only the same way,
 * also against {@code rawset}. {@code KEYS} and {@code ARGV} are set by the runner before each script.
 *
 * <p>Not thread-safe: used under the runner's lock.
 */
final class LuaSandbox {
    static final String READONLY = "Attempt to modify a readonly table";
    /** Lua 5.1's {@code LUAI_MAXCSTACK}: how many values a C function may push, so {@code unpack} may return. */
    static final int MAX_RESULTS = 8000;

    private final Globals globals = new Globals();
    /** What scripts see as their globals: empty, protected (a {@code Globals} so that luaj runs the hook). */
    private final Globals env = new Globals();
    private final Set<LuaValue> readonly = Collections.newSetFromMap(new IdentityHashMap<>());
    private final ScriptHook hook = new ScriptHook();
    private final ScriptCoroutines coroutines = new ScriptCoroutines(globals, hook::where, hook::allocationFailed);
    /** The {@code cjson} settings of this state: they last from script to script, as in Redis. */
    private final CjsonLib.Config cjson = new CjsonLib.Config();
    /** The table the protected globals read from: {@link #globals}, or a library load's API (Redis's swap). */
    private LuaTable visible = globals;

    LuaSandbox(Supplier<ScriptRun> current) {
        globals.load(new BaseLib());
        LuaTable pkg = new LuaTable();
        pkg.set("loaded", new LuaTable());
        globals.set("package", pkg); // the libraries register themselves in package.loaded; removed below
        globals.load(new TableLib());
        globals.load(new StringLib());
        globals.load(new JseMathLib());
        globals.load(new CoroutineLib());
        coroutines.install((LuaTable) globals.get("coroutine")); // bounded: one Java thread per coroutine
        globals.load(hook); // sets globals.debuglib: the call and instruction hooks
        LoadState.install(globals);
        LuaC.install(globals);
        LuaValue baseLoad = globals.get("load");
        VarArgFunction sandboxedLoad = new VarArgFunction() { // load and loadstring compile into the sandbox
            @Override
            public Varargs invoke(Varargs args) {
                return baseLoad.invoke(LuaValue.varargsOf(new LuaValue[] {args.arg1(),
                    args.isnoneornil(2) ? LuaValue.valueOf("=(load)") : args.arg(2), LuaValue.valueOf("t"), env}));
            }
        };
        globals.rawset("load", sandboxedLoad);
        globals.rawset("loadstring", sandboxedLoad);
        for (String name : new String[] {"package", "debug", "loadfile", "dofile", "print", "require",
            "module", "collectgarbage"}) {
            globals.rawset(name, LuaValue.NIL);
        }
        LuaValue table = globals.get("table");
        globals.rawset("unpack", table.get("unpack"));
        table.set("getn", new OneArgFunction() {
            @Override
            public LuaValue call(LuaValue t) {
                return LuaValue.valueOf(t.checktable().length());
            }
        });
        globals.get("math").set("mod", globals.get("math").get("fmod"));
        globals.get("string").set("gfind", globals.get("string").get("gmatch"));
        globals.get("string").set("format", new LuaFormat());
        LuaValue baseError = globals.get("error");
        globals.rawset("error", new VarArgFunction() { // error(msg, 0): Lua adds no position to the message
            @Override
            public Varargs invoke(Varargs args) {
                if (args.narg() >= 2 && args.arg(2).isnumber() && args.arg(2).toint() == 0
                        && args.arg1().type() == LuaValue.TSTRING) {
                    throw new ScriptErrors.Unpositioned(args.arg1());
                }
                return baseError.invoke(args);
            }
        });
        LuaValue basePcall = globals.get("pcall");
        globals.rawset("pcall", new VarArgFunction() { // Redis 7.0's luaRedisPcall: an error table as its err text
            @Override
            public Varargs invoke(Varargs args) {
                Varargs r = basePcall.invoke(LuaValue.varargsOf(guarded(args.arg1()), args.subargs(2)));
                return r.arg1().toboolean() ? r
                        : LuaValue.varargsOf(LuaValue.FALSE, ScriptErrors.caught(r.arg(2), true));
            }
        });
        LuaValue baseXpcall = globals.get("xpcall");
        globals.rawset("xpcall", new VarArgFunction() { // the handler sees Lua's message, as pcall's caller does
            @Override
            public Varargs invoke(Varargs args) {
                LuaValue handler = args.arg(2);
                if (!handler.isfunction()) {
                    return baseXpcall.invoke(args);
                }
                LuaValue shaped = new VarArgFunction() {
                    @Override
                    public Varargs invoke(Varargs a) {
                        return handler.invoke(LuaValue.varargsOf(ScriptErrors.caught(a.arg1(), false), a.subargs(2)));
                    }
                };
                return baseXpcall.invoke(LuaValue.varargsOf(guarded(args.arg1()), shaped, args.subargs(3)));
            }
        });
        LuaValue baseUnpack = globals.get("table").get("unpack");
        globals.get("table").set("unpack", new VarArgFunction() { // Lua 5.1's lua_checkstack on the results
            @Override
            public Varargs invoke(Varargs args) {
                LuaValue t = args.arg1();
                if (t.istable()) {
                    long i = args.isnoneornil(2) ? 1 : (long) args.checkdouble(2);
                    long e = args.isnoneornil(3) ? t.length() : (long) args.checkdouble(3);
                    if (e - i + 1 >= MAX_RESULTS) {
                        throw new LuaError("too many results to unpack");
                    }
                }
                return baseUnpack.invoke(args);
            }
        });
        globals.rawset("unpack", globals.get("table").get("unpack"));
        LuaValue baseConcat = globals.get("table").get("concat");
        globals.get("table").set("concat", new VarArgFunction() { // the memory cap (luaj's buffer overflows at 2 GB)
            @Override
            public Varargs invoke(Varargs args) {
                LuaTable t = args.checktable(1);
                long sep = args.isnoneornil(2) ? 0 : args.checkstring(2).length();
                long i = args.isnoneornil(3) ? 1 : (int) (long) args.checkdouble(3);
                long j = args.isnoneornil(4) ? t.length() : (int) (long) args.checkdouble(4);
                long total = 0;
                for (long k = i; k <= j; k++) {
                    LuaValue v = t.get((int) k);
                    if (!v.isstring()) { // Lua 5.1's wording (luaj: "bad argument: string expected")
                        throw new LuaError("invalid value (" + v.typename() + ") at index " + k
                                + " in table for 'concat'");
                    }
                    total += v.strvalue().length() + (k < j ? sep : 0);
                }
                if (total >= ScriptMemory.LARGE) {
                    hook.reserve(total);
                }
                if (total > Integer.MAX_VALUE - 8) { // more than a Java array holds: an allocation failure
                    throw hook.allocationFailed();
                }
                return baseConcat.invoke(args);
            }
        });
        LuaValue baseTostring = globals.get("tostring");
        globals.rawset("tostring", new VarArgFunction() { // Lua 5.1's "%.14g"; luaj prints floats as Java floats
            @Override
            public Varargs invoke(Varargs args) {
                LuaValue v = args.arg1();
                return v.type() == LuaValue.TNUMBER ? LuaValue.valueOf(numberToString(v.todouble()))
                        : baseTostring.invoke(args);
            }
        });
        globals.get("string").set("rep", new VarArgFunction() { // the memory cap (ScriptMemory), Lua's n <= 0
            @Override
            public Varargs invoke(Varargs args) {
                LuaString s = args.checkstring(1);
                long len = s.length();
                // Lua 5.1's luaL_checkint: the number truncated to a 64-bit integer, then to a C int (so 2^32 + 1
                // repeats once and 2^31 + 5 is negative: an empty string, as on Redis)
                long n = (int) (long) args.checkdouble(2);
                if (n <= 0 || len == 0) {
                    return LuaValue.EMPTYSTRING;
                }
                long total = len * n; // both below 2^31: no overflow
                if (total >= ScriptMemory.LARGE) {
                    hook.reserve(total);
                }
                if (total > Integer.MAX_VALUE - 8) { // more than a Java array holds: an allocation failure
                    throw hook.allocationFailed();
                }
                byte[] out = new byte[(int) total];
                for (int at = 0; at < total; at += len) {
                    System.arraycopy(s.m_bytes, s.m_offset, out, at, (int) len);
                }
                return LuaString.valueUsing(out);
            }
        });
        globals.rawset("_VERSION", LuaValue.valueOf("Lua 5.1"));
        globals.rawset("gcinfo", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                Runtime rt = Runtime.getRuntime();
                return LuaValue.valueOf((int) ((rt.totalMemory() - rt.freeMemory()) >> 10));
            }
        });
        LuaValue baseRawset = globals.get("rawset");
        globals.rawset("rawset", new ThreeArgFunction() {
            @Override
            public LuaValue call(LuaValue t, LuaValue k, LuaValue v) {
                if (readonly.contains(t)) { // Redis raises this one without a position
                    throw new LuaError(LuaReplyBuilder.errorTable("ERR " + READONLY));
                }
                return baseRawset.call(t, k, v);
            }
        });
        globals.rawset("redis", RedisLib.create(current));
        globals.rawset("bit", BitLib.create());
        globals.rawset("cjson", CjsonLib.create(cjson, hook::reserve));
        globals.rawset("struct", StructLib.create());
        globals.rawset("cmsgpack", CmsgpackLib.create());
        for (String lib : new String[] {"string", "table", "math", "coroutine", "redis", "bit", "cjson", "struct",
            "cmsgpack"}) {
            globals.rawset(lib, readOnly(globals.get(lib)));
        }
        protectStringMetatable(globals.get("string"));
        readonly.add(LuaString.s_metatable);
        globals.rawset("_G", env);
        env.running = globals.running;
        env.baselib = globals.baselib;
        env.debuglib = globals.debuglib;
        env.compiler = globals.compiler;
        env.loader = globals.loader;
        env.setmetatable(strictMetatable(() -> visible)); // visible: the load-time API during a library load
        readonly.add(env);
    }

    /**
     * {@code f} as pcall and xpcall run it: an allocation that fails inside it ({@link
     * ScriptErrors#allocationFailure}, which luaj's pcall would hand to the script as a Java exception's text)
     * stops the script with {@code not enough memory}, as the memory cap does; anything else passes unchanged.
     */
    private LuaValue guarded(LuaValue f) {
        if (!f.isfunction()) {
            return f; // pcall reports the call error itself
        }
        return new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                try {
                    return f.invoke(args);
                } catch (LuaError e) {
                    if (ScriptErrors.allocationFailure(e)) {
                        throw hook.allocationFailed();
                    }
                    throw e;
                } catch (NegativeArraySizeException e) {
                    throw hook.allocationFailed();
                }
            }
        };
    }

    /**
     * The metatable of a protected table showing {@code backing}'s table (read at each access): a missing name
     * fails as a missing global, writes fail, the metatable is hidden (Redis's {@code luaSetErrorMetatable}).
     */
    private LuaTable strictMetatable(java.util.function.Supplier<LuaTable> backing) {
        LuaTable mt = new LuaTable();
        mt.rawset("__index", new TwoArgFunction() {
            @Override
            public LuaValue call(LuaValue t, LuaValue k) {
                LuaValue v = backing.get().rawget(k);
                if (v.isnil()) {
                    throw nonexistent(k);
                }
                return v;
            }
        });
        mt.rawset("__newindex", readonlyWrite());
        mt.rawset("__metatable", LuaValue.FALSE);
        return mt;
    }

    /** Lua 5.1's {@code lua_number2str}: {@code "%.14g"}, with glibc's {@code inf}, {@code -inf}, {@code -nan}. */
    static String numberToString(double d) {
        if (Double.isNaN(d)) {
            return "-nan"; // x86's default NaN, the one arithmetic makes, has its sign bit set
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "inf" : "-inf";
        }
        return LuaFormat.floating(".14", 'g', d);
    }

    ScriptHook hook() {
        return hook;
    }

    /**
     * Ends the run on this state: every coroutine it left alive is ended, its thread gone ({@link
     * ScriptCoroutines#closeAll}), and the hook stops watching. Called when a script, function or library load
     * ends, however it ends.
     */
    void finish() {
        try {
            coroutines.closeAll();
        } finally {
            hook.stop();
        }
    }

    /** Puts the {@code cjson} settings back to their defaults (SCRIPT FLUSH: Redis makes a new Lua state). */
    void resetCjson() {
        cjson.reset();
    }

    /** Sets a global the scripts see ({@code KEYS}, {@code ARGV}). */
    void setGlobal(String name, LuaValue v) {
        globals.rawset(name, v);
    }

    /**
     * Compiles {@code body} as a chunk named {@code @user_script} in the protected environment (text only:
     * precompiled chunks are refused).
     *
     * @throws LuaError the compile error, Lua's message
     */
    LuaFunction compile(byte[] body) {
        return compile(body, "@user_script");
    }

    /** As {@link #compile(byte[])}, naming the chunk {@code chunkName} ({@code @user_function} for libraries). */
    LuaFunction compile(byte[] body, String chunkName) {
        LuaValue f = globals.load(new ByteArrayInputStream(body), chunkName, "t", env);
        return (LuaFunction) f;
    }

    /**
     * Runs {@code chunk} while the protected globals show only {@code api}'s names, then shows the ordinary
     * globals again: a library's load, which Redis runs with its {@code __LIBRARY_API__} as the globals
     * ({@code luaEngineCreate}). Functions the chunk defines keep the same environment, so when called later
     * they see the ordinary globals.
     *
     * @throws LuaError what the chunk raised
     */
    void runWithGlobals(LuaTable api, LuaFunction chunk) {
        visible = api;
        try {
            chunk.call();
        } finally {
            visible = globals;
        }
    }

    /**
     * A read-only view of {@code lib} whose reads of a missing name fail as a missing global does (Redis's
     * {@code luaSetErrorMetatable}: the load-time {@code redis} table).
     */
    LuaTable strictReadOnly(LuaTable lib) {
        LuaTable proxy = new LuaTable();
        proxy.setmetatable(strictMetatable(() -> lib));
        readonly.add(proxy);
        readonly.add(lib);
        return proxy;
    }

    private static LuaError nonexistent(LuaValue name) {
        return new LuaError("Script attempted to access nonexistent global variable '" + name.tojstring() + "'");
    }

    private LuaValue readOnly(LuaValue lib) {
        FrozenTable proxy = new FrozenTable();
        LuaTable mt = new LuaTable();
        mt.rawset("__index", lib);
        mt.rawset("__newindex", readonlyWrite());
        mt.rawset("__metatable", LuaValue.FALSE);
        proxy.setmetatable(mt);
        proxy.freeze();
        readonly.add(proxy);
        readonly.add(lib);
        return proxy;
    }

    /**
     * Makes the strings' metatable ({@code getmetatable('')}, whose {@code __index} serves {@code s:upper()})
     * read-only, as Redis 7.0 does: luaj keeps it in a static field ({@link LuaString#s_metatable}), set by the first
     * {@link StringLib} loaded in the JVM to that state's own, writable string table, so a script could otherwise
     * change what every later script, the other Lua state and every other engine in the process get from
     * {@code ('x'):upper()}. Installed once: its {@code __index} is the first sandbox's read-only {@code string}.
     */
    private static void protectStringMetatable(LuaValue stringLib) {
        synchronized (LuaSandbox.class) {
            if (!(LuaString.s_metatable instanceof FrozenTable)) {
                FrozenTable mt = new FrozenTable();
                mt.rawset(LuaValue.INDEX, stringLib);
                LuaString.s_metatable = mt.freeze();
            }
        }
    }

    /**
     * A table nobody can change once {@linkplain #freeze() frozen}, whichever Lua state reaches it: assignments,
     * Lua's {@code rawset}, {@code table.insert} and {@code setmetatable} fail with Redis's
     * {@code Attempt to modify a readonly table}.
     */
    static final class FrozenTable extends LuaTable {
        private boolean frozen;

        FrozenTable freeze() {
            frozen = true;
            return this;
        }

        private void check() {
            if (frozen) {
                throw new LuaError(READONLY);
            }
        }

        @Override
        public void rawset(int key, LuaValue value) {
            check();
            super.rawset(key, value);
        }

        @Override
        public void rawset(LuaValue key, LuaValue value) {
            check();
            super.rawset(key, value);
        }

        @Override
        public void hashset(LuaValue key, LuaValue value) {
            check();
            super.hashset(key, value);
        }

        @Override
        public void insert(int pos, LuaValue value) {
            check();
            super.insert(pos, value);
        }

        @Override
        public LuaValue setmetatable(LuaValue metatable) {
            if (frozen) { // Redis raises this one without a position
                throw new LuaError(LuaReplyBuilder.errorTable("ERR " + READONLY));
            }
            return super.setmetatable(metatable);
        }
    }

    private static LuaValue readonlyWrite() {
        return new ThreeArgFunction() {
            @Override
            public LuaValue call(LuaValue t, LuaValue k, LuaValue v) {
                throw new LuaError(READONLY);
            }
        };
    }
}
