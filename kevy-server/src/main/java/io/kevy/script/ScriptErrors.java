package io.kevy.script;

import io.kevy.engine.error.ErrorReply;
import java.lang.reflect.Field;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;

/**
 * Redis 7.0's script error texts and how a Lua error becomes the EVAL reply ({@code luaCallFunction} with the
 * {@code __redis__err__handler}): a table error keeps its {@code err} text, any other error becomes
 * {@code ERR <position>: <message>}, and both get {@code  script: <sha>, on @user_script:<line>.} appended;
 * a compile error is {@code ERR Error compiling script (new function): <lua message>}.
 *
 * <p>luaj writes positions as {@code @user_script:1 msg}; they are rewritten to Lua's {@code user_script:1: msg}.
 * Stateless; thread-safe.
 */
final class ScriptErrors {
    static final String UNKNOWN_COMMAND = "ERR Unknown Redis command called from script";
    static final String WRONG_ARGS = "ERR Wrong number of args calling Redis command from script";
    static final String NOT_ALLOWED = "ERR This Redis command is not allowed from script";
    static final String WRITE_IN_READONLY = "ERR Write commands are not allowed from read-only scripts.";
    static final String NO_ARGUMENTS = "ERR Please specify at least one argument for this redis lib call";
    static final String BAD_ARGUMENT = "ERR Lua redis lib command arguments must be strings or integers";
    static final String KILLED = "ERR Script killed by user with SCRIPT KILL...";
    static final ErrorReply NOSCRIPT = ErrorReply.of("NOSCRIPT No matching script. Please use EVAL.");
    static final ErrorReply NEGATIVE_KEYS = ErrorReply.err("Number of keys can't be negative");
    static final ErrorReply TOO_MANY_KEYS = ErrorReply.err("Number of keys can't be greater than number of args");

    private static final Pattern POSITION = Pattern.compile("^@?(user_script|user_function):(\\d+):? ");
    private static final Pattern LUAJ_SYMBOL = Pattern.compile("unexpected symbol (\\d+) \\(.\\)");
    /** luaj's reserved tokens from 257 (FIRST_RESERVED), in its LexState order. */
    private static final String[] TOKENS = {"and", "break", "do", "else", "elseif", "end", "false", "for",
        "function", "goto", "if", "in", "local", "nil", "not", "or", "repeat", "return", "then", "true", "until",
        "while", "..", "...", "==", ">=", "<=", "~=", "::", "<eof>"};
    private static final Field FILELINE = fileline();

    private ScriptErrors() {
    }

    private static Field fileline() {
        try {
            Field f = LuaError.class.getDeclaredField("fileline");
            f.setAccessible(true);
            return f;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null; // positions then come from the message only
        }
    }

    /**
     * True when {@code e} is an allocation that could not be made: the JVM's {@link OutOfMemoryError}, or a result
     * longer than a Java array holds (luaj sizes its buffers in {@code int}s and fails with a
     * {@link NegativeArraySizeException}, which its VM wraps in a {@code vm error} LuaError). Lua reports both as
     * {@code not enough memory}; the Java exception's name must not reach the script or the client.
     */
    static boolean allocationFailure(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof OutOfMemoryError || t instanceof NegativeArraySizeException) {
                return true;
            }
        }
        return false;
    }

    /** The EVAL reply for a compile error of a script body. */
    static ErrorReply compile(LuaError e) {
        return ErrorReply.err("Error compiling script (new function): " + compileMessage(e));
    }

    static String compileMessage(LuaError e) {
        String m = stripTraceback(String.valueOf(e.getMessage()));
        Matcher sym = LUAJ_SYMBOL.matcher(m);
        if (sym.find()) { // luaj prints the token's code; Lua prints "near '<token>'"
            int t = Integer.parseInt(sym.group(1));
            String token = t < 257 ? String.valueOf((char) t) : t - 257 < TOKENS.length ? TOKENS[t - 257] : "?";
            m = m.substring(0, sym.start()) + "unexpected symbol near '" + token + "'" + m.substring(sym.end());
        }
        return m;
    }

    /** A Lua error raised without a position (Lua's {@code error(msg, 0)}): its message stands alone. */
    static final class Unpositioned extends LuaError {
        private static final long serialVersionUID = 1L;

        Unpositioned(LuaValue message) {
            super(message);
        }
    }

    private static final Pattern ARITH = Pattern.compile("attempt to perform arithmetic (?:__\\w+ )?on (\\w+) and (\\w+)");
    private static final Pattern CONCAT = Pattern.compile("attempt to concatenate (\\w+) and (\\w+)");
    private static final Pattern COMPARE = Pattern.compile("attempt to compare __\\w+ on (\\w+) and (\\w+)");
    private static final Pattern LENGTH = Pattern.compile("attempt to get length of (\\w+)$");
    private static final Pattern CALL = Pattern.compile("attempt to call (\\w+)$");

    /**
     * luaj's wording of a runtime error in Lua 5.1's, where the two differ only in form: {@code attempt to call
     * nil} → {@code attempt to call a nil value}, the operand types of arithmetic, concatenation, comparison and
     * length. Lua also names the variable ({@code local 't'}, {@code field 'x'}): luaj does not know it, so those
     * messages keep Lua's anonymous form. luaj's {@code bad argument} texts lack the function's name (and often
     * the argument's number) and stay as they are.
     */
    static String luaWording(String text) {
        Matcher m = ARITH.matcher(text);
        if (m.find()) {
            String bad = m.group(1).equals("number") ? m.group(2) : m.group(1);
            return text.substring(0, m.start()) + "attempt to perform arithmetic on a " + bad + " value"
                    + text.substring(m.end());
        }
        m = CONCAT.matcher(text);
        if (m.find()) { // luaG_concaterror: the first operand that is neither a string nor a number
            String a = m.group(1);
            String bad = a.equals("string") || a.equals("number") ? m.group(2) : a;
            return text.substring(0, m.start()) + "attempt to concatenate a " + bad + " value"
                    + text.substring(m.end());
        }
        m = COMPARE.matcher(text);
        if (m.find()) { // luaG_ordererror
            String how = m.group(1).equals(m.group(2)) ? "two " + m.group(1) + " values"
                    : m.group(1) + " with " + m.group(2);
            return text.substring(0, m.start()) + "attempt to compare " + how + text.substring(m.end());
        }
        m = LENGTH.matcher(text);
        if (m.find()) {
            return text.substring(0, m.start()) + "attempt to get length of a " + m.group(1) + " value";
        }
        m = CALL.matcher(text);
        if (m.find()) {
            return text.substring(0, m.start()) + "attempt to call a " + m.group(1) + " value";
        }
        return text;
    }

    /**
     * A caught error as Lua 5.1 under Redis 7.0 hands it to the script (pcall's second result, xpcall's handler's
     * argument): luaj's {@code @user_script:1 msg} and the traceback luaj appends become Lua's
     * {@code user_script:1: msg} (in Lua's wording, {@link #luaWording}); with {@code errTables}, a table with an
     * {@code err} field becomes that field (Redis's {@code luaRedisPcall}, so {@code pcall(redis.call, ...)} yields
     * the error's text). Anything else is returned as it is.
     */
    static LuaValue caught(LuaValue v, boolean errTables) {
        if (v instanceof LuaTable t) {
            LuaValue err = t.rawget(LuaReplyBuilder.ERR);
            return errTables && err.isstring() ? err : v;
        }
        if (!(v instanceof LuaString s)) {
            return v;
        }
        String raw = LuaReplies.latin1(s);
        String text = stripTraceback(raw);
        Matcher p = POSITION.matcher(text);
        if (p.find()) {
            text = p.group(1) + ":" + p.group(2) + ": " + luaWording(text.substring(p.end()));
        }
        return text.equals(raw) ? v : LuaString.valueUsing(text.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
    }

    /** The EVAL reply for a script that raised {@code e} while running. */
    static ErrorReply runtime(LuaError e, String sha, int currentLine) {
        return runtime(e, sha, currentLine, "user_script");
    }

    /**
     * The reply for a script or function that raised {@code e} while running: {@code <msg> script: <name>, on
     * @<chunk>:<line>.} ({@code luaCallFunction}); {@code name} is the SHA1 of a script or the function's name,
     * {@code chunk} {@code user_script} or {@code user_function}.
     */
    static ErrorReply runtime(LuaError e, String name, int currentLine, String chunk) {
        String[] ml = message(e, currentLine, chunk);
        return ErrorReply.of(ml[0] + " script: " + name + ", on @" + chunk + ":" + (ml[1] == null ? "?" : ml[1])
                + ".");
    }

    /**
     * The text of a library load's error after {@code Error registering functions: } ({@code luaEngineCreate}
     * with {@code luaExtractErrorInformation}): a table error's {@code err}, else {@code ERR <position>: <msg>}.
     */
    static String loadMessage(LuaError e, int currentLine) {
        return message(e, currentLine, "user_function")[0];
    }

    /** {message with its code, line or null} of {@code e}. */
    private static String[] message(LuaError e, int currentLine, String chunk) {
        LuaValue obj = e.getMessageObject();
        String msg;
        String line = lineOf(e);
        if (line == null && currentLine > 0) {
            line = Integer.toString(currentLine); // raised by a library function in a tail call
        }
        if (obj instanceof LuaTable t && t.rawget(LuaReplyBuilder.ERR).type() == LuaValue.TSTRING) {
            msg = LuaReplies.latin1(t.rawget(LuaReplyBuilder.ERR).checkstring());
            if (msg.startsWith("-")) {
                msg = msg.substring(1);
            }
        } else if (obj == null || obj.isnil() || isNullMessage(obj)) {
            msg = "ERR nil"; // error() without a value
        } else {
            String text = obj instanceof LuaString s ? LuaReplies.latin1(s) : obj.tojstring();
            text = stripTraceback(text);
            Matcher p = POSITION.matcher(text);
            if (e instanceof Unpositioned) {
                // error(msg, 0): the message alone
            } else if (p.find()) {
                if (line == null) {
                    line = p.group(2);
                }
                text = p.group(1) + ":" + p.group(2) + ": " + luaWording(text.substring(p.end()));
            } else if (text.equals("invalid key to 'next'")) {
                // raised inside the C function by luaH_next: Lua gives it no position
            } else if (line != null && !text.startsWith(chunk + ":")) {
                text = luaWording(text);
                text = chunk + ":" + line + ": " + text; // Lua positions errors of library functions too
            }
            msg = "ERR " + text;
        }
        return new String[] {msg, line};
    }

    private static String lineOf(LuaError e) {
        if (FILELINE == null) {
            return null;
        }
        try {
            Object fl = FILELINE.get(e);
            if (fl instanceof String s) {
                int colon = s.lastIndexOf(':');
                return colon >= 0 ? s.substring(colon + 1) : null;
            }
        } catch (IllegalAccessException ignored) {
            // no position: the message's, if any
        }
        return null;
    }

    /**
     * The value a Lua error hands to whoever catches it (luaj's pcall and resume: the message object), with
     * {@code error()}'s missing message as nil, as in Lua; then {@link #caught} gives it Lua's text.
     */
    static LuaValue messageValue(LuaError e) {
        LuaValue m = e.getMessageObject();
        return m == null || isNullMessage(m) ? LuaValue.NIL : m;
    }

    /** luaj's message of {@code error()}: "null", without a position, before any traceback. */
    private static boolean isNullMessage(LuaValue obj) {
        return obj.type() == LuaValue.TSTRING && stripTraceback(obj.tojstring()).equals("null");
    }

    private static String stripTraceback(String m) {
        int tb = m.indexOf("\nstack traceback:");
        return tb >= 0 ? m.substring(0, tb) : m;
    }
}
