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
 * A {@link ReplySink} that turns a command's RESP2 reply into the Lua value {@code redis.call} returns, by
 * Redis 7.0's RESP-to-Lua rules ({@code redisProtocolToLuaType}): integer → number, bulk → string, null bulk
 * and null array → {@code false}, array → table (1-based), status → {@code {ok=<s>}}, error →
 * {@code {err=<message>}}. Bulk bytes are copied (the engine shares its arrays).
 *
 * <p>Not thread-safe: one per nested call.
 */
final class LuaReplyBuilder implements ReplySink {
    static final LuaString OK = LuaString.valueOf("ok");
    static final LuaString ERR = LuaString.valueOf("err");

    private final Deque<Open> open = new ArrayDeque<>();
    private LuaValue root;
    private ErrorReply error;

    private static final class Open {
        final LuaTable table;
        final int expected;
        int filled;

        Open(int expected) {
            this.table = new LuaTable(expected, 0);
            this.expected = expected;
        }
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
            o.table.rawset(++o.filled, cur);
            if (o.filled < o.expected) {
                return;
            }
            open.pop();
            cur = o.table;
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
        add(LuaValue.FALSE);
    }

    @Override
    public void nullArray() {
        add(LuaValue.FALSE);
    }

    @Override
    public void array(int n) {
        if (n == 0) {
            add(new LuaTable());
        } else {
            open.push(new Open(n));
        }
    }
}
