package io.kevy.engine.command;

import static io.kevy.engine.command.CommandFlag.DENYOOM;
import static io.kevy.engine.command.CommandFlag.FAST;
import static io.kevy.engine.command.CommandFlag.READONLY;
import static io.kevy.engine.command.CommandFlag.WRITE;
import static io.kevy.engine.command.CommandSpec.command;
import io.kevy.engine.Keyspace;
import io.kevy.engine.error.ErrorReply;
import io.kevy.engine.error.Errors;
import io.kevy.engine.struct.Dict;
import io.kevy.engine.text.Bytes;
import io.kevy.engine.text.RedisNumbers;
import io.kevy.resp.Verbs;

/**
 * String commands that edit a value or read part of it: APPEND, SETRANGE, GETRANGE, SUBSTR, INCR, DECR, INCRBY,
 * DECRBY, INCRBYFLOAT (Redis 7.0 semantics, replies and error texts).
 *
 * <p>Every edit keeps the key's TTL and emits the new value as {@code SET k <new> KEEPTTL} (feed contract §7);
 * edits that change nothing (APPEND or SETRANGE of an empty string to an existing key) emit nothing. Values
 * are immutable arrays, so an edit builds a new array of the full length.
 */
final class StringEditCommands {
    static final ErrorReply OFFSET_OUT_OF_RANGE = ErrorReply.err("offset is out of range");
    static final ErrorReply DECREMENT_OVERFLOW = ErrorReply.err("decrement would overflow");
    /** Redis's MAX_LONG_DOUBLE_CHARS: longer strings are not floats for INCRBYFLOAT. */
    private static final int MAX_LONG_DOUBLE_CHARS = 5 * 1024;

    private StringEditCommands() {
    }

    static void register(CommandTable t) {
        t.add(command("append", 3).flags(WRITE, DENYOOM, FAST).keys(1, 1, 1).group("string").since("2.0.0")
                .summary("Appends a string to the value of a key. Creates the key if it doesn't exist.")
                .handler(StringEditCommands::append));
        t.add(command("setrange", 4).flags(WRITE, DENYOOM).keys(1, 1, 1).group("string").since("2.2.0")
                .summary("Overwrites a part of a string value with another by an offset. Creates the key if it "
                        + "doesn't exist.")
                .handler(StringEditCommands::setrange));
        t.add(command("getrange", 4).flags(READONLY).keys(1, 1, 1).group("string").since("2.4.0")
                .summary("Returns a substring of the string stored at a key.").handler(StringEditCommands::getrange));
        t.add(command("substr", 4).flags(READONLY).keys(1, 1, 1).group("string").since("1.0.0")
                .summary("Returns a substring from a string value.").handler(StringEditCommands::getrange));
        t.add(command("incr", 2).flags(WRITE, DENYOOM, FAST).keys(1, 1, 1).group("string").since("1.0.0")
                .summary("Increments the integer value of a key by one. Uses 0 as initial value if the key doesn't "
                        + "exist.")
                .handler(c -> incrBy(c, 1)));
        t.add(command("decr", 2).flags(WRITE, DENYOOM, FAST).keys(1, 1, 1).group("string").since("1.0.0")
                .summary("Decrements the integer value of a key by one. Uses 0 as initial value if the key doesn't "
                        + "exist.")
                .handler(c -> incrBy(c, -1)));
        t.add(command("incrby", 3).flags(WRITE, DENYOOM, FAST).keys(1, 1, 1).group("string").since("1.0.0")
                .summary("Increments the integer value of a key by a number. Uses 0 as initial value if the key "
                        + "doesn't exist.")
                .handler(c -> incrBy(c, c.longArg(2))));
        t.add(command("decrby", 3).flags(WRITE, DENYOOM, FAST).keys(1, 1, 1).group("string").since("1.0.0")
                .summary("Decrements a number from the integer value of a key. Uses 0 as initial value if the key "
                        + "doesn't exist.")
                .handler(c -> {
                    long by = c.longArg(2);
                    if (by == Long.MIN_VALUE) {
                        throw Call.fail(DECREMENT_OVERFLOW);
                    }
                    incrBy(c, -by);
                }));
        t.add(command("incrbyfloat", 3).flags(WRITE, DENYOOM, FAST).keys(1, 1, 1).group("string").since("2.6.0")
                .summary("Increment the floating point value of a key by a number. Uses 0 as initial value if the "
                        + "key doesn't exist.")
                .handler(StringEditCommands::incrByFloat));
    }

    /**
     * Stores the edited value {@code nv} (keeping the TTL; a missing key is created) with an encoding hint, and
     * emits it as {@code SET k <new> KEEPTTL}.
     */
    static void store(Call c, byte[] key, byte[] nv, int hint) {
        Dict.Node<Object> n = c.db(key).put(key, nv, true);
        Keyspace.encodingHint(n, hint);
        c.emit(Verbs.SET, key, nv, Verbs.KEEPTTL);
    }

    /** APPEND: a missing key is created with the argument (encoded as SET would); else the result is raw. */
    private static void append(Call c) {
        byte[] key = c.arg(1);
        byte[] tail = c.arg(2);
        Dict.Node<Object> n = c.node(key);
        if (n == null) {
            c.db(key).add(key, tail);
            c.emit(Verbs.SET, key, tail, Verbs.KEEPTTL);
            c.reply().integer(tail.length);
            return;
        }
        byte[] old = asString(n);
        StringValues.checkLength(c.engine(), old.length, tail.length);
        if (tail.length == 0) {
            Keyspace.encodingHint(n, StringValues.HINT_RAW); // Redis unshares (raw) even for an empty append
            c.reply().integer(old.length);
            return;
        }
        byte[] nv = StringValues.allocate((long) old.length + tail.length);
        System.arraycopy(old, 0, nv, 0, old.length);
        System.arraycopy(tail, 0, nv, old.length, tail.length);
        store(c, key, nv, StringValues.HINT_RAW);
        c.reply().integer(nv.length);
    }

    /**
     * SETRANGE: the offset is checked first ({@code ERR value is not an integer or out of range}, then
     * {@code ERR offset is out of range} when negative), then the type and the resulting length. An empty
     * argument changes nothing and answers the current length (0 for a missing key, which is not created).
     */
    private static void setrange(Call c) {
        byte[] key = c.arg(1);
        long offset = c.longArg(2);
        if (offset < 0) {
            throw Call.fail(OFFSET_OUT_OF_RANGE);
        }
        byte[] patch = c.arg(3);
        Dict.Node<Object> n = c.node(key);
        byte[] old = n == null ? null : asString(n);
        if (patch.length == 0) {
            c.reply().integer(old == null ? 0 : old.length);
            return;
        }
        StringValues.checkLength(c.engine(), offset, patch.length);
        long len = Math.max(old == null ? 0 : old.length, offset + patch.length);
        byte[] nv = StringValues.allocate(len);
        if (old != null) {
            System.arraycopy(old, 0, nv, 0, old.length);
        }
        System.arraycopy(patch, 0, nv, (int) offset, patch.length);
        store(c, key, nv, StringValues.HINT_RAW);
        c.reply().integer(nv.length);
    }

    /**
     * GETRANGE/SUBSTR: both indexes are parsed before the key is read; negative indexes count from the end, the
     * range is clamped, and an empty or inverted range answers the empty string (as does a missing key).
     */
    private static void getrange(Call c) {
        long start = c.longArg(2);
        long end = c.longArg(3);
        byte[] v = c.read(c.arg(1), byte[].class);
        if (v == null) {
            c.reply().bulk(Bytes.EMPTY);
            return;
        }
        long len = v.length;
        if (start < 0 && end < 0 && start > end) {
            c.reply().bulk(Bytes.EMPTY);
            return;
        }
        long[] r = Args.clampStringRange(start, end, len);
        start = r[0];
        end = r[1];
        if (start > end || len == 0) {
            c.reply().bulk(Bytes.EMPTY);
        } else {
            c.reply().bulk(v, (int) start, (int) (end - start + 1));
        }
    }

    /** INCR/DECR/INCRBY/DECRBY: WRONGTYPE, then the stored value must be an integer, then the overflow check. */
    private static void incrBy(Call c, long by) {
        byte[] key = c.arg(1);
        byte[] cur = c.value(key, byte[].class);
        long old = cur == null ? 0 : RedisNumbers.parseLong(cur, Errors.NOT_INTEGER);
        if ((by < 0 && old < 0 && by < Long.MIN_VALUE - old) || (by > 0 && old > 0 && by > Long.MAX_VALUE - old)) {
            throw Call.fail(Errors.OVERFLOW);
        }
        long v = old + by;
        store(c, key, RedisNumbers.toBytes(v), StringValues.HINT_DEFAULT);
        c.reply().integer(v);
    }

    /**
     * INCRBYFLOAT: x87 long-double arithmetic and {@code %.17Lf} formatting as Redis
     * ({@link RedisNumbers#addLongDouble}); the result is stored as a string, never {@code int}-encoded.
     */
    private static void incrByFloat(Call c) {
        byte[] key = c.arg(1);
        byte[] cur = c.value(key, byte[].class);
        byte[] incr = c.arg(2);
        if ((cur != null && cur.length >= MAX_LONG_DOUBLE_CHARS) || incr.length >= MAX_LONG_DOUBLE_CHARS) {
            throw Call.fail(Errors.NOT_FLOAT);
        }
        byte[] nv = RedisNumbers.addLongDouble(cur, incr, Errors.NOT_FLOAT);
        store(c, key, nv, StringValues.HINT_NO_INT);
        c.reply().bulk(nv);
    }

    /** The string value of {@code n}; WRONGTYPE when it holds another type. */
    static byte[] asString(Dict.Node<Object> n) {
        if (n.value() instanceof byte[] b) {
            return b;
        }
        throw Call.fail(Errors.WRONGTYPE);
    }
}
