package io.kevy.script;

import io.kevy.engine.ServerInfo;
import io.kevy.engine.command.CommandFlag;
import io.kevy.engine.command.CommandSpec;
import io.kevy.engine.text.Bytes;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.lib.VarArgFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code redis} table of Redis 7.0's scripting API: {@code call}, {@code pcall}, {@code error_reply},
 * {@code status_reply}, {@code sha1hex}, {@code log}, {@code setresp} (2 or 3: the protocol of {@code redis.call}'s
 * replies, {@link LuaReplyBuilder}), {@code set_repl} and {@code replicate_commands} (accepted; the feed always
 * carries a script's effects), the {@code LOG_*} and {@code REPL_*} constants, and {@code REDIS_VERSION} and
 * {@code REDIS_VERSION_NUM} ({@link ServerInfo#REDIS_VERSION}, as HELLO and INFO report it).
 *
 * <p>{@code redis.call} checks, in Redis's order (its {@code scriptCall}): the arguments are strings or numbers
 * (numbers as Lua 5.1 prints them), the command exists, its arity, that it may run from a script (no
 * {@code noscript} flag), and that a read-only script calls no write command; then it runs the command nested
 * in the script's EVAL ({@link io.kevy.engine.command.Call#runNested}). An error reply is raised by
 * {@code call} as a {@code {err=...}} table and returned by {@code pcall}.
 *
 * <p>Used under the runner's lock only.
 */
final class RedisLib {
    private static final Logger log = LoggerFactory.getLogger("io.kevy.script.lua");
    static final int LOG_DEBUG = 0;
    static final int LOG_VERBOSE = 1;
    static final int LOG_NOTICE = 2;
    static final int LOG_WARNING = 3;

    private RedisLib() {
    }

    /**
     * The {@code err} text of {@code redis.error_reply(m)}, as Redis 7.0's {@code luaRedisErrorReplyCommand} and
     * {@code luaPushErrorBuff} make it: {@code '-'} is prepended when missing; a text after the {@code '-'} with no
     * space is the message of code {@code ERR}, else its first word is the code and the rest (from after that
     * space) the message, with {@code \r} and {@code \n} trimmed from both its ends: {@code boom} → {@code ERR
     * boom}, {@code -MY boom} → {@code MY boom}, {@code ''} → {@code "ERR "}.
     */
    static String errorReplyText(String m) {
        String text = m.startsWith("-") ? m.substring(1) : m;
        int space = text.indexOf(' ');
        String code = space < 0 ? "ERR" : text.substring(0, space);
        String msg = space < 0 ? text : text.substring(space + 1);
        int from = 0;
        int to = msg.length();
        while (from < to && (msg.charAt(from) == '\r' || msg.charAt(from) == '\n')) {
            from++;
        }
        while (to > from && (msg.charAt(to - 1) == '\r' || msg.charAt(to - 1) == '\n')) {
            to--;
        }
        return code + " " + msg.substring(from, to);
    }

    /** Redis's {@code REDIS_VERSION_NUM}: {@code 0x00MMmmpp}. */
    static int versionNum(String version) {
        String[] p = version.split("\\.");
        return Integer.parseInt(p[0]) << 16 | Integer.parseInt(p[1]) << 8 | Integer.parseInt(p[2]);
    }

    /** The {@code redis} table, whose calls run in the script {@code current} returns. */
    static LuaTable create(Supplier<ScriptRun> current) {
        LuaTable redis = new LuaTable();
        redis.set("call", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                return redisCall(current.get(), args, true);
            }
        });
        redis.set("pcall", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                return redisCall(current.get(), args, false);
            }
        });
        redis.set("error_reply", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                if (args.narg() != 1 || args.arg1().type() != LuaValue.TSTRING) {
                    return LuaReplyBuilder.errorTable("ERR wrong number or type of arguments");
                }
                return LuaReplyBuilder.errorTable(errorReplyText(LuaReplies.latin1(args.arg1().checkstring())));
            }
        });
        redis.set("status_reply", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                if (args.narg() != 1 || args.arg1().type() != LuaValue.TSTRING) {
                    return LuaReplyBuilder.errorTable("ERR wrong number or type of arguments");
                }
                LuaTable t = new LuaTable();
                t.rawset(LuaReplyBuilder.OK, args.arg1());
                return t;
            }
        });
        redis.set("sha1hex", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                if (args.narg() != 1) {
                    throw new LuaError(LuaReplyBuilder.errorTable("ERR wrong number of arguments"));
                }
                if (!args.arg1().isstring()) { // Redis's lua_tolstring gives NULL, length 0: the SHA1 of ""
                    return LuaValue.valueOf(Sha1.hex(new byte[0]));
                }
                LuaString s = args.arg1().checkstring();
                byte[] b = new byte[s.m_length];
                System.arraycopy(s.m_bytes, s.m_offset, b, 0, b.length);
                return LuaValue.valueOf(Sha1.hex(b));
            }
        });
        redis.set("log", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                if (args.narg() < 2) {
                    throw new LuaError(LuaReplyBuilder.errorTable("ERR redis.log() requires two arguments or more."));
                }
                if (!args.arg1().isnumber()) {
                    throw new LuaError(LuaReplyBuilder.errorTable("ERR First argument must be a number (log level)."));
                }
                int level = args.arg1().toint();
                if (level < LOG_DEBUG || level > LOG_WARNING) {
                    throw new LuaError(LuaReplyBuilder.errorTable("ERR Invalid debug level."));
                }
                StringBuilder msg = new StringBuilder();
                for (int i = 2; i <= args.narg(); i++) {
                    if (i > 2) {
                        msg.append(' ');
                    }
                    msg.append(args.arg(i).tojstring());
                }
                switch (level) {
                    case LOG_WARNING -> log.warn("{}", msg);
                    case LOG_NOTICE -> log.info("{}", msg);
                    default -> log.debug("{}", msg);
                }
                return LuaValue.NONE;
            }
        });
        redis.set("setresp", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                if (args.narg() != 1) {
                    throw new LuaError(LuaReplyBuilder.errorTable("ERR redis.setresp() requires one argument."));
                }
                int resp = toNumber(args.arg1());
                if (resp != 2 && resp != 3) {
                    throw new LuaError(LuaReplyBuilder.errorTable("ERR RESP version must be 2 or 3."));
                }
                ScriptRun run = current.get();
                if (run != null) {
                    run.resp(resp);
                }
                return LuaValue.NONE;
            }
        });
        redis.set("set_repl", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                if (args.narg() != 1) { // Redis's text, "two" included
                    throw new LuaError(LuaReplyBuilder.errorTable("ERR redis.set_repl() requires two arguments."));
                }
                int flags = toNumber(args.arg1());
                if (flags < 0 || flags > 3) {
                    throw new LuaError(LuaReplyBuilder.errorTable(
                            "ERR Invalid replication flags. Use REPL_AOF, REPL_REPLICA, REPL_ALL or REPL_NONE."));
                }
                return LuaValue.NONE; // accepted: kevy's feed and AOF always carry a script's effects
            }
        });
        redis.set("replicate_commands", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                return LuaValue.TRUE;
            }
        });
        redis.set("LOG_DEBUG", LOG_DEBUG);
        redis.set("LOG_VERBOSE", LOG_VERBOSE);
        redis.set("LOG_NOTICE", LOG_NOTICE);
        redis.set("LOG_WARNING", LOG_WARNING);
        redis.set("REDIS_VERSION", ServerInfo.REDIS_VERSION); // the version HELLO and INFO report
        redis.set("REDIS_VERSION_NUM", versionNum(ServerInfo.REDIS_VERSION));
        redis.set("REPL_NONE", 0);
        redis.set("REPL_AOF", 1);
        redis.set("REPL_SLAVE", 2);
        redis.set("REPL_REPLICA", 2);
        redis.set("REPL_ALL", 3);
        return redis;
    }

    /** Lua's {@code lua_tonumber} as C's {@code int}: a number or a numeric string, truncated; anything else 0. */
    private static int toNumber(LuaValue v) {
        return v.isnumber() ? (int) v.todouble() : 0;
    }

    private static Varargs redisCall(ScriptRun run, Varargs args, boolean raise) {
        if (run == null) {
            throw new LuaError("redis.call outside a script");
        }
        int n = args.narg();
        if (n == 0) {
            return fail(NO_ARGS, raise);
        }
        byte[][] argv = new byte[n][];
        for (int i = 0; i < n; i++) {
            LuaValue a = args.arg(i + 1);
            if (a.type() == LuaValue.TSTRING) {
                LuaString s = a.checkstring();
                argv[i] = new byte[s.m_length];
                System.arraycopy(s.m_bytes, s.m_offset, argv[i], 0, s.m_length);
            } else if (a.type() == LuaValue.TNUMBER) {
                argv[i] = LuaNumbers.callArgument(a.todouble()).getBytes(StandardCharsets.US_ASCII);
            } else {
                return fail(BAD_ARG, raise);
            }
        }
        CommandSpec spec = run.call.dispatcher().commands().lookup(argv[0]);
        if (spec != null && spec.isContainer() && n >= 2) {
            spec = spec.subcommands().get(Bytes.lowerAscii(argv[1]));
        }
        if (spec == null) {
            return fail(UNKNOWN, raise);
        }
        if (!spec.arityOk(n) || spec.handler() == null) {
            return fail(ARITY, raise);
        }
        if (spec.has(CommandFlag.NOSCRIPT)) {
            return fail(NOSCRIPT, raise);
        }
        if (spec.isWrite()) {
            if (run.readOnly) {
                return fail(READONLY, raise);
            }
            // Redis's scriptVerifyWriteCommandAllow: a script's writes meet the same refusals a client's do,
            // a failed disk (MISCONF) and a read-only replica (READONLY), unless the primary's link runs it
            String diskError = run.call.engine().durability().writeError();
            if (diskError != null) {
                return fail(diskError, raise);
            }
            io.kevy.engine.error.ErrorReply refusal = run.call.engine().writeRefusal();
            if (refusal != null && !run.call.session().master()) {
                return fail(refusal.message(), raise);
            }
            run.wrote();
        }
        LuaReplyBuilder reply = new LuaReplyBuilder(run.resp());
        run.call.runNested(argv, spec, reply);
        LuaValue v = reply.result();
        if (v == null) {
            v = LuaValue.FALSE;
        }
        if (raise && reply.error() != null) {
            throw new LuaError(v);
        }
        return v;
    }

    private static final String NO_ARGS = ScriptErrors.NO_ARGUMENTS;
    private static final String BAD_ARG = ScriptErrors.BAD_ARGUMENT;
    private static final String UNKNOWN = ScriptErrors.UNKNOWN_COMMAND;
    private static final String ARITY = ScriptErrors.WRONG_ARGS;
    private static final String NOSCRIPT = ScriptErrors.NOT_ALLOWED;
    private static final String READONLY = ScriptErrors.WRITE_IN_READONLY;

    private static Varargs fail(String error, boolean raise) {
        LuaTable t = LuaReplyBuilder.errorTable(error);
        if (raise) {
            throw new LuaError(t);
        }
        return t;
    }
}
