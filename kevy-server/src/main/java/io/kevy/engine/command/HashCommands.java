package io.kevy.engine.command;

import static io.kevy.engine.command.CommandFlag.DENYOOM;
import static io.kevy.engine.command.CommandFlag.FAST;
import static io.kevy.engine.command.CommandFlag.READONLY;
import static io.kevy.engine.command.CommandFlag.WRITE;
import static io.kevy.engine.command.CommandSpec.command;
import io.kevy.engine.config.EncodingLimits;
import io.kevy.engine.error.ErrorReply;
import io.kevy.engine.error.Errors;
import io.kevy.engine.text.RedisNumbers;
import io.kevy.engine.type.HashValue;
import io.kevy.resp.ReplySink;
import io.kevy.resp.Verbs;

/**
 * Hash commands (Redis 7.0): HSET, HSETNX, HMSET, HGET, HMGET, HDEL, HEXISTS, HLEN, HSTRLEN, HKEYS, HVALS, HGETALL,
 * HINCRBY, HINCRBYFLOAT. HSCAN and HRANDFIELD are in {@link HashScanCommands}.
 *
 * <p>Frames (feed contract §7): HSET, HMSET and an applied HSETNX emit {@code HSET k f v ...}; HDEL emits
 * {@code HDEL k <fields actually deleted>} (deleting the last field deletes the key, on replay too); HINCRBY and
 * HINCRBYFLOAT emit {@code HSET k f <new value>}. A hash is never stored empty.
 */
final class HashCommands {
    static final ErrorReply HASH_NOT_INTEGER = ErrorReply.err("hash value is not an integer");
    static final ErrorReply HASH_NOT_FLOAT = ErrorReply.err("hash value is not a float");
    static final ErrorReply INCR_NAN_OR_INF = ErrorReply.err("value is NaN or Infinity");

    private HashCommands() {
    }

    static void register(CommandTable t) {
        t.add(write("hset", -4, "Set the string value of a hash field",
                "O(1) for each field/value pair added, so O(N) to add N field/value pairs when the command is called "
                        + "with multiple field/value pairs.").flags(DENYOOM).keyFlags("RW", "update")
                .handler(c -> hset(c, false)));
        t.add(write("hsetnx", 4, "Set the value of a hash field, only if the field does not exist", "O(1)")
                .flags(DENYOOM).keyFlags("RW", "insert").handler(HashCommands::hsetnx));
        t.add(write("hmset", -4, "Set multiple hash fields to multiple values",
                "O(N) where N is the number of fields being set.").flags(DENYOOM).keyFlags("RW", "update")
                .handler(c -> hset(c, true)));
        t.add(write("hdel", -3, "Delete one or more hash fields",
                "O(N) where N is the number of fields to be removed.").keyFlags("RW", "delete")
                .handler(HashCommands::hdel));
        t.add(write("hincrby", 4, "Increment the integer value of a hash field by the given number", "O(1)")
                .flags(DENYOOM).keyFlags("RW", "access", "update").handler(HashCommands::hincrby));
        t.add(write("hincrbyfloat", 4, "Increment the float value of a hash field by the given amount", "O(1)")
                .since("2.6.0").flags(DENYOOM).keyFlags("RW", "access", "update").handler(HashCommands::hincrbyfloat));
        t.add(read("hget", 3, "Get the value of a hash field", "O(1)").flags(FAST).keyFlags("RO", "access")
                .handler(c -> {
                    HashValue h = c.read(c.arg(1), HashValue.class);
                    c.reply().bulkOrNull(h == null ? null : h.get(c.arg(2)));
                }));
        t.add(read("hmget", -3, "Get the values of all the given hash fields",
                "O(N) where N is the number of fields being requested.").flags(FAST).keyFlags("RO", "access")
                .handler(HashCommands::hmget));
        t.add(read("hexists", 3, "Determine if a hash field exists", "O(1)").flags(FAST).keyFlags("RO")
                .handler(c -> {
                    HashValue h = c.read(c.arg(1), HashValue.class);
                    c.reply().integer(h != null && h.contains(c.arg(2)) ? 1 : 0);
                }));
        t.add(read("hlen", 2, "Get the number of fields in a hash", "O(1)").flags(FAST).keyFlags("RO")
                .handler(c -> {
                    HashValue h = c.read(c.arg(1), HashValue.class);
                    c.reply().integer(h == null ? 0 : h.size());
                }));
        t.add(read("hstrlen", 3, "Get the length of the value of a hash field", "O(1)").since("3.2.0").flags(FAST)
                .keyFlags("RO").handler(c -> {
                    HashValue h = c.read(c.arg(1), HashValue.class);
                    byte[] v = h == null ? null : h.get(c.arg(2));
                    c.reply().integer(v == null ? 0 : v.length);
                }));
        t.add(read("hkeys", 2, "Get all the fields in a hash", "O(N) where N is the size of the hash.")
                .keyFlags("RO", "access").tips("nondeterministic_output_order").handler(c -> getAll(c, true, false)));
        t.add(read("hvals", 2, "Get all the values in a hash", "O(N) where N is the size of the hash.")
                .keyFlags("RO", "access").tips("nondeterministic_output_order").handler(c -> getAll(c, false, true)));
        t.add(read("hgetall", 2, "Get all the fields and values in a hash", "O(N) where N is the size of the hash.")
                .keyFlags("RO", "access").tips("nondeterministic_output_order").handler(c -> getAll(c, true, true)));
        HashScanCommands.register(t);
    }

    /** A read command of the hash group on key 1, since 2.0.0 unless changed. */
    static CommandSpec.Builder read(String name, int arity, String summary, String complexity) {
        return command(name, arity).flags(READONLY).keys(1, 1, 1).group("hash").since("2.0.0").summary(summary)
                .complexity(complexity);
    }

    private static CommandSpec.Builder write(String name, int arity, String summary, String complexity) {
        return command(name, arity).flags(WRITE, FAST).keys(1, 1, 1).group("hash").since("2.0.0").summary(summary)
                .complexity(complexity);
    }

    /** The hash at {@code key}, created (and stored) when absent; WRONGTYPE otherwise. */
    private static HashValue hashForWrite(Call c, byte[] key) {
        HashValue h = c.value(key, HashValue.class);
        if (h == null) {
            h = new HashValue();
            c.db(key).add(key, h);
        }
        return h;
    }

    /** HSET / HMSET: every pair is applied; the frame is {@code HSET k f v ...} as given. */
    private static void hset(Call c, boolean hmset) {
        if (c.argc() % 2 != 0) {
            throw Call.fail(Errors.wrongArity(hmset ? "hmset" : "hset"));
        }
        byte[] key = c.arg(1);
        HashValue h = hashForWrite(c, key);
        EncodingLimits limits = c.engine().encodings();
        byte[][] frame = new byte[c.argc()][];
        frame[0] = Verbs.HSET;
        frame[1] = key;
        System.arraycopy(c.argv(), 2, frame, 2, c.argc() - 2);
        int added = 0;
        for (int i = 2; i < c.argc(); i += 2) {
            if (h.put(c.arg(i), c.arg(i + 1), limits) == null) {
                added++;
            }
        }
        c.emit(frame);
        if (hmset) {
            c.reply().ok();
        } else {
            c.reply().integer(added);
        }
    }

    private static void hsetnx(Call c) {
        byte[] key = c.arg(1);
        byte[] field = c.arg(2);
        byte[] value = c.arg(3);
        HashValue h = c.value(key, HashValue.class);
        if (h != null && h.contains(field)) {
            c.reply().integer(0);
            return;
        }
        h = hashForWrite(c, key);
        h.put(field, value, c.engine().encodings());
        c.emit(Verbs.HSET, key, field, value);
        c.reply().integer(1);
    }

    /** HDEL: stops at the field that empties the hash (Redis 7.0), deletes the key then. */
    private static void hdel(Call c) {
        byte[] key = c.arg(1);
        HashValue h = c.value(key, HashValue.class);
        if (h == null) {
            c.reply().integer(0);
            return;
        }
        byte[][] deleted = new byte[c.argc()][];
        int n = 2;
        for (int i = 2; i < c.argc(); i++) {
            if (h.remove(c.arg(i))) {
                deleted[n++] = c.arg(i);
                if (h.size() == 0) {
                    c.db(key).remove(key);
                    break;
                }
            }
        }
        if (n > 2) {
            deleted[0] = Verbs.HDEL;
            deleted[1] = key;
            c.emit(java.util.Arrays.copyOf(deleted, n));
        }
        c.reply().integer(n - 2);
    }

    private static void hincrby(Call c) {
        long incr = c.longArg(3);
        byte[] key = c.arg(1);
        byte[] field = c.arg(2);
        HashValue h = c.value(key, HashValue.class);
        byte[] cur = h == null ? null : h.get(field);
        long value = cur == null ? 0 : RedisNumbers.parseLong(cur, HASH_NOT_INTEGER);
        if ((incr < 0 && value < 0 && incr < Long.MIN_VALUE - value)
                || (incr > 0 && value > 0 && incr > Long.MAX_VALUE - value)) {
            throw Call.fail(Errors.OVERFLOW);
        }
        value += incr;
        byte[] nv = RedisNumbers.toBytes(value);
        storeCounter(c, key, field, nv);
        c.reply().integer(value);
    }

    private static void hincrbyfloat(Call c) {
        byte[] incr = c.arg(3);
        try {
            RedisNumbers.addLongDouble(null, incr, Errors.NOT_FLOAT);
        } catch (io.kevy.engine.error.CommandException e) {
            throw e.reply() == Errors.NOT_FLOAT ? e : Call.fail(INCR_NAN_OR_INF);
        }
        byte[] key = c.arg(1);
        byte[] field = c.arg(2);
        HashValue h = c.value(key, HashValue.class);
        byte[] nv = RedisNumbers.addLongDouble(h == null ? null : h.get(field), incr, HASH_NOT_FLOAT);
        storeCounter(c, key, field, nv);
        c.reply().bulk(nv);
    }

    /** Stores a HINCRBY/HINCRBYFLOAT result and emits {@code HSET k f v}. */
    private static void storeCounter(Call c, byte[] key, byte[] field, byte[] value) {
        hashForWrite(c, key).put(field, value, c.engine().encodings());
        c.emit(Verbs.HSET, key, field, value);
    }

    private static void hmget(Call c) {
        HashValue h = c.read(c.arg(1), HashValue.class);
        ReplySink r = c.reply();
        r.array(c.argc() - 2);
        for (int i = 2; i < c.argc(); i++) {
            r.bulkOrNull(h == null ? null : h.get(c.arg(i)));
        }
    }

    /**
     * HKEYS, HVALS, HGETALL: the pairs in the hash's iteration order (insertion order while listpack); HGETALL is
     * a map (Redis's {@code genericHgetallCommand}), HKEYS and HVALS arrays.
     */
    private static void getAll(Call c, boolean fields, boolean values) {
        HashValue h = c.read(c.arg(1), HashValue.class);
        ReplySink r = c.reply();
        int n = h == null ? 0 : h.size();
        if (fields && values) {
            r.map(n);
        } else {
            r.array(n);
        }
        if (h == null) {
            return;
        }
        h.forEach((f, v) -> {
            if (fields) {
                r.bulk(f);
            }
            if (values) {
                r.bulk(v);
            }
        });
    }
}
