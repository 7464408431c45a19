package io.kevy.script;

import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaFunction;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.lib.VarArgFunction;

/**
 * Runs a library's code on the functions' Lua state so that it registers its functions, as Redis 7.0's Lua
 * engine does ({@code luaEngineCreate}, {@code luaRegisterFunction}): the code is compiled as
 * {@code @user_function}, then run while the globals show only {@code redis} with {@code register_function},
 * {@code log}, the {@code LOG_*} constants, {@code REDIS_VERSION} and {@code REDIS_VERSION_NUM} (any other
 * name fails as a missing global), under a time limit ({@code FUNCTION LOAD timeout}, 500 ms; none for the
 * primary's link and boot replay, which must obey).
 *
 * <p>{@code redis.register_function(name, callback)} or {@code redis.register_function{function_name=...,
 * callback=..., flags={...}, description=...}} with Redis's argument errors; called outside a load (a function
 * that kept a reference to it) it fails with {@code redis.register_function can only be called on FUNCTION LOAD
 * command}.
 *
 * <p>Errors are {@link IllegalArgumentException}s whose message is Redis's reply text without {@code ERR }:
 * {@code Error compiling function: ...}, {@code Error registering functions: ...}.
 *
 * <p>Not thread-safe: used under the runner's lock ({@link Scripts#withFunctionState}).
 */
final class LibraryLoader {
    /** Redis's {@code LOAD_TIMEOUT_MS}. */
    static final long LOAD_TIMEOUT_MS = 500;
    static final String OUTSIDE_LOAD = "redis.register_function can only be called on FUNCTION LOAD command";

    private final LuaSandbox sandbox;
    private final LuaTable api;
    /** The functions of the library being loaded, or null outside a load. */
    private Map<String, LibraryFunction> loading;
    private String loadingLibrary;

    LibraryLoader(LuaSandbox sandbox) {
        this.sandbox = sandbox;
        LuaTable redis = new LuaTable();
        redis.rawset("register_function", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                register(args);
                return LuaValue.NONE;
            }
        });
        LuaTable runtime = RedisLib.create(() -> null);
        redis.rawset("log", runtime.get("log"));
        for (String level : new String[] {"LOG_DEBUG", "LOG_VERBOSE", "LOG_NOTICE", "LOG_WARNING"}) {
            redis.rawset(level, runtime.get(level));
        }
        redis.rawset("REDIS_VERSION", runtime.get("REDIS_VERSION"));
        redis.rawset("REDIS_VERSION_NUM", runtime.get("REDIS_VERSION_NUM"));
        api = new LuaTable();
        api.rawset("redis", sandbox.strictReadOnly(redis));
    }

    /**
     * Compiles and runs {@code md}'s code, returning the functions it registered in registration order (empty
     * when it registered none).
     *
     * @param timeoutMs the load's time limit, 0 for none
     * @throws IllegalArgumentException with Redis's error text (see the class comment)
     */
    Map<String, LibraryFunction> load(LibraryMetadata md, long timeoutMs) {
        LuaFunction chunk;
        try {
            chunk = sandbox.compile(md.code(), "@user_function");
        } catch (LuaError e) {
            throw new IllegalArgumentException("Error compiling function: " + ScriptErrors.compileMessage(e));
        }
        Map<String, LibraryFunction> functions = new LinkedHashMap<>();
        loading = functions;
        loadingLibrary = md.name();
        sandbox.hook().startLoad(timeoutMs);
        try {
            sandbox.runWithGlobals(api, chunk);
        } catch (LuaError e) {
            throw new IllegalArgumentException("Error registering functions: "
                    + ScriptErrors.loadMessage(e, sandbox.hook().currentLine()));
        } catch (StackOverflowError e) {
            throw new IllegalArgumentException("Error registering functions: ERR stack overflow");
        } finally {
            sandbox.finish();
            loading = null;
            loadingLibrary = null;
        }
        return Collections.unmodifiableMap(functions);
    }

    private void register(Varargs args) {
        if (loading == null) {
            throw error(OUTSIDE_LOAD);
        }
        String name;
        byte[] desc = null;
        LuaFunction callback = null;
        Set<FunctionFlag> flags = EnumSet.noneOf(FunctionFlag.class);
        if (args.narg() < 1 || args.narg() > 2) {
            throw error("wrong number of arguments to redis.register_function");
        }
        if (args.narg() == 1) {
            if (!args.arg1().istable()) {
                throw error("calling redis.register_function with a single argument is only applicable to Lua "
                        + "table (representing named arguments).");
            }
            name = null;
            LuaTable t = args.arg1().checktable();
            LuaValue k = LuaValue.NIL;
            while (true) {
                Varargs kv = t.next(k);
                k = kv.arg1();
                if (k.isnil()) {
                    break;
                }
                LuaValue v = kv.arg(2);
                if (!k.isstring()) {
                    throw error("named argument key given to redis.register_function is not a string");
                }
                String key = k.tojstring().toLowerCase(java.util.Locale.ROOT);
                switch (key) {
                    case "function_name" -> {
                        if (!v.isstring()) {
                            throw error("function_name argument given to redis.register_function must be a string");
                        }
                        name = text(v);
                    }
                    case "description" -> {
                        if (!v.isstring()) {
                            throw error("description argument given to redis.register_function must be a string");
                        }
                        desc = bytes(v);
                    }
                    case "callback" -> {
                        if (!v.isfunction()) {
                            throw error("callback argument given to redis.register_function must be a function");
                        }
                        callback = (LuaFunction) v;
                    }
                    case "flags" -> {
                        if (!v.istable()) {
                            throw error("flags argument to redis.register_function must be a table representing "
                                    + "function flags");
                        }
                        flags = flags(v.checktable());
                    }
                    default -> throw error("unknown argument given to redis.register_function");
                }
            }
            if (name == null) {
                throw error("redis.register_function must get a function name argument");
            }
            if (callback == null) {
                throw error("redis.register_function must get a callback argument");
            }
        } else {
            if (!args.arg1().isstring()) {
                throw error("first argument to redis.register_function must be a string");
            }
            if (!args.arg(2).isfunction()) {
                throw error("second argument to redis.register_function must be a function");
            }
            name = text(args.arg1());
            callback = (LuaFunction) args.arg(2);
        }
        if (!LibraryMetadata.validName(name)) {
            throw error(Functions.BAD_NAME);
        }
        if (loading.containsKey(name)) {
            throw error("Function already exists in the library");
        }
        loading.put(name, new LibraryFunction(name, desc, Collections.unmodifiableSet(flags), callback,
                loadingLibrary));
    }

    private static Set<FunctionFlag> flags(LuaTable t) {
        Set<FunctionFlag> flags = EnumSet.noneOf(FunctionFlag.class);
        for (int j = 1; ; j++) {
            LuaValue v = t.get(j);
            if (v.isnil()) {
                return flags;
            }
            FunctionFlag f = v.isstring() ? FunctionFlag.of(text(v)) : null;
            if (f == null) {
                throw error("unknown flag given");
            }
            flags.add(f);
        }
    }

    /** A string or a number as Lua 5.1's {@code lua_tostring} gives it. */
    private static String text(LuaValue v) {
        if (v.type() == LuaValue.TNUMBER) {
            return LuaNumbers.format(v.todouble());
        }
        return LuaReplies.latin1(v.checkstring());
    }

    private static byte[] bytes(LuaValue v) {
        if (v.type() == LuaValue.TNUMBER) {
            return LuaNumbers.format(v.todouble()).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        }
        LuaString s = v.checkstring();
        byte[] b = new byte[s.m_length];
        System.arraycopy(s.m_bytes, s.m_offset, b, 0, b.length);
        return b;
    }

    private static LuaError error(String message) {
        return new LuaError(LuaReplyBuilder.errorTable("ERR " + message));
    }
}
