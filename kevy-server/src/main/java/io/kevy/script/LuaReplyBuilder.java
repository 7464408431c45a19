package io.kevy.script;

import io.kevy.engine.error.ErrorReply;
import io.kevy.resp.ReplySink;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import org.luaj.vm2.LuaInteger;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;

/**
 * A {@link ReplySink} that turns a command's reply into the Lua value {@code redis.call} returns, by Redis 7.0's
 * RESP-to-Lua rules ({@code redisProtocolToLuaType}): integer → number, bulk → string, null bulk and null array →
 * {@code false}, array → table (1-based), status → {@code {ok=<s>}}, error → {@code {err=<message>}}. Bulk bytes
 * are copied (the engine shares its arrays). On protocol 3 (the script called {@code redis.setresp(3)}) the
 * reply is the RESP3 one and its types convert as Redis's do: map → {@code {map={k=v...}}}, set →
 * {@code {set={m=true...}}}, double → {@code {double=<n>}}, null → {@code nil}, boolean → boolean, big number →
 * {@code {big_number=<s>}}, verbatim string → {@code {verbatim_string={format=<f>, string=<s>}}}.
 *
 * <p>Not thread-safe: one per nested call.
 */
final class LuaReplyBuilder implements ReplySink {
    static final LuaString OK = LuaString.valueOf("ok");
    static final LuaString ERR = LuaString.valueOf("err");
    static final LuaString MAP = LuaString.valueOf("map");
    static final LuaString SET = LuaString.valueOf("set");
    static final LuaString DOUBLE = LuaString.valueOf("double");
    static final LuaString BIG_NUMBER = LuaString.valueOf("big_number");
    static final LuaString VERBATIM = LuaString.valueOf("verbatim_string");
    static final LuaString FORMAT = LuaString.valueOf("format");
    static final LuaString STRING = LuaString.valueOf("string");

    private final boolean resp3;
    private final Deque<Open> open = new ArrayDeque<>();
    private LuaValue root;
    private ErrorReply error;

    private enum Kind { ARRAY, MAP, SET }

    private static final class Open {
        final LuaTable table;
        final Kind kind;
        final int expected;
        int filled;
        LuaValue key;

        Open(Kind kind, int expected) {
            this.kind = kind;
            this.table = kind == Kind.ARRAY ? new LuaTable(expected, 0) : new LuaTable();
            this.expected = expected;
        }

        /** Adds one element; true when the aggregate is complete. */
        boolean add(LuaValue v) {
            switch (kind) {
                case ARRAY -> table.rawset(filled + 1, v);
                case MAP -> {
                    if (filled % 2 == 0) {
                        key = v;
                    } else if (!key.isnil()) {
                        table.rawset(key, v);
                    }
                }
                case SET -> {
                    if (!v.isnil()) {
                        table.rawset(v, LuaValue.TRUE);
                    }
                }
            }
            return ++filled == expected;
        }

        LuaValue value() {
            return kind == Kind.ARRAY ? table : wrap(kind == Kind.MAP ? MAP : SET, table);
        }
    }

    /** A builder of RESP2 replies (a script on {@code redis.setresp(2)}, the default). */
    LuaReplyBuilder() {
        this(2);
    }

    /** A builder of the replies of protocol {@code resp} (2 or 3, the script's {@code redis.setresp}). */
    LuaReplyBuilder(int resp) {
        this.resp3 = resp == 3;
    }

    private static LuaTable wrap(LuaString field, LuaValue v) {
        LuaTable t = new LuaTable();
        t.rawset(field, v);
        return t;
    }

    /** The reply as a Lua value; null when none was written. */
    LuaValue result() {
        return root;
    }

    /** The error reply when the top-level reply was an error, else null. */
    ErrorReply error() {
        return open.isEmpty() && root != null ? error : null;
    }

    private void add(LuaValue v) {
        LuaValue cur = v;
        while (true) {
            Open o = open.peek();
            if (o == null) {
                root = cur;
                return;
            }
            if (!o.add(cur)) {
                return;
            }
            open.pop();
            cur = o.value();
        }
    }

    static LuaTable status(String s) {
        LuaTable t = new LuaTable();
        t.rawset(OK, LuaString.valueOf(s));
        return t;
    }

    static LuaTable errorTable(String message) {
        LuaTable t = new LuaTable();
        t.rawset(ERR, latin1(message));
        return t;
    }

    /** A Lua string of the bytes of {@code s}, one per char (error texts are Latin-1, see {@link ErrorReply}). */
    static LuaString latin1(String s) {
        return LuaString.valueUsing(s.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
    }

    @Override
    public void ok() {
        add(status("OK"));
    }

    @Override
    public void simple(String s) {
        add(status(s));
    }

    @Override
    public void error(ErrorReply e) {
        if (open.isEmpty()) {
            error = e;
        }
        add(errorTable(e.message()));
    }

    @Override
    public void integer(long v) {
        add(LuaInteger.valueOf(v));
    }

    @Override
    public void bulk(byte[] b) {
        add(LuaString.valueUsing(b.clone()));
    }

    @Override
    public void bulk(byte[] b, int off, int len) {
        add(LuaString.valueUsing(Arrays.copyOfRange(b, off, off + len)));
    }

    @Override
    public void nullBulk() {
        add(resp3 ? LuaValue.NIL : LuaValue.FALSE);
    }

    @Override
    public void nullArray() {
        add(resp3 ? LuaValue.NIL : LuaValue.FALSE);
    }

    @Override
    public void array(int n) {
        aggregate(Kind.ARRAY, n);
    }

    private void aggregate(Kind kind, int elements) {
        Open o = new Open(kind, elements);
        if (elements == 0) {
            add(o.value());
        } else {
            open.push(o);
        }
    }

    @Override
    public int protocol() {
        return resp3 ? 3 : 2;
    }

    @Override
    public void map(int n) {
        if (resp3) {
            aggregate(Kind.MAP, 2 * n);
        } else {
            array(2 * n);
        }
    }

    @Override
    public void set(int n) {
        if (resp3) {
            aggregate(Kind.SET, n);
        } else {
            array(n);
        }
    }

    @Override
    public void pairs(int n) {
        array(resp3 ? n : 2 * n);
    }

    @Override
    public void pair() {
        if (resp3) {
            array(2);
        }
    }

    @Override
    public void keyedMap(int n) {
        if (resp3) {
            map(n);
        } else {
            array(n);
        }
    }

    @Override
    public void keyedEntry() {
        if (!resp3) {
            array(2);
        }
    }

    @Override
    public void doubleValue(double d) {
        if (resp3) {
            // the value Redis's Lua gets back from parsing the %.17g text: the same double
            add(wrap(DOUBLE, LuaValue.valueOf(d)));
        } else {
            bulkDouble(d);
        }
    }

    @Override
    public void doubleText(byte[] text) {
        if (resp3) {
            String t = new String(text, java.nio.charset.StandardCharsets.US_ASCII);
            double d = t.equals("inf") ? Double.POSITIVE_INFINITY : t.equals("-inf") ? Double.NEGATIVE_INFINITY
                    : Double.parseDouble(t);
            add(wrap(DOUBLE, LuaValue.valueOf(d)));
        } else {
            bulk(text);
        }
    }

    @Override
    public void bool(boolean v) {
        if (resp3) {
            add(LuaValue.valueOf(v));
        } else {
            integer(v ? 1 : 0);
        }
    }

    @Override
    public void bigNumber(byte[] digits) {
        if (resp3) {
            add(wrap(BIG_NUMBER, LuaString.valueUsing(digits.clone())));
        } else {
            bulk(digits);
        }
    }

    @Override
    public void verbatim(byte[] text, String format) {
        if (resp3) {
            LuaTable v = new LuaTable();
            v.rawset(STRING, LuaString.valueUsing(text.clone()));
            v.rawset(FORMAT, LuaString.valueOf(format));
            add(wrap(VERBATIM, v));
        } else {
            bulk(text);
        }
    }
}
