package io.kevy.feed.client;

import static io.kevy.feed.client.RawChange.NONE;

import io.kevy.feed.client.RawChange.Parts;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;

/**
 * Decodes a frame's argv into a {@link RawChange}: our effect frames (feed contract §7: upper-case verbs,
 * absolute times, counters as new values) and upstream kevy's verbatim commands (any casing, relative
 * EXPIRE/SETEX, INCR, SPOP, EVAL, failed and no-op writes). Never throws: a frame of a shape it does not know,
 * or a malformed one (upstream records failed commands too), becomes {@link Op#OTHER} with argv[1] as its
 * key by convention and {@code keysKnown} false, so filters deliver it. Stateless and thread-safe.
 */
final class FrameDecoder {
    private FrameDecoder() {
    }

    static RawChange decode(byte[][] argv) {
        String verb = new String(argv[0], StandardCharsets.ISO_8859_1).toUpperCase(Locale.ROOT);
        try {
            Parts p = known(verb, argv);
            if (p != null) {
                return p.build();
            }
        } catch (RuntimeException malformed) {
            // an upstream frame of a failed command (wrong arity, bad number): fall through to OTHER
        }
        return other(argv).build();
    }

    private static Parts other(byte[][] argv) {
        return RawChange.of(Op.OTHER, argv.length > 1 ? new byte[][] {argv[1]} : NONE).inexact().unknownKeys();
    }

    @SuppressWarnings("checkstyle:CyclomaticComplexity")
    private static Parts known(String verb, byte[][] a) {
        switch (verb) {
            case "SET":
                return set(a);
            case "SETNX":
                return string(a[1], a[2]).inexact();
            case "GETSET":
                return string(a[1], a[2]);
            case "SETEX":
            case "PSETEX": {
                Parts p = string(a[1], a[3]);
                p.ttl = verb.equals("SETEX") ? Math.multiplyExact(num(a[2]), 1000L) : num(a[2]);
                return p.inexact();
            }
            case "GETDEL":
                return RawChange.of(Op.DEL, a[1]).inexact();
            case "GETEX":
                return getex(a);
            case "MSET":
            case "MSETNX": {
                Parts p = RawChange.of(Op.MSET, every(a, 1, 2));
                p.pairs = slice(a, 1, a.length);
                if ((a.length - 1) % 2 != 0 || a.length < 3) {
                    return null;
                }
                return verb.equals("MSETNX") ? p.inexact() : p;
            }
            case "INCR":
            case "DECR":
            case "INCRBY":
            case "DECRBY":
            case "INCRBYFLOAT":
                return RawChange.of(Op.INCR, a[1]).inexact();
            case "DEL":
            case "UNLINK":
                return a.length < 2 ? null : RawChange.of(Op.DEL, slice(a, 1, a.length));
            case "EXPIRE":
            case "PEXPIRE": {
                Parts p = RawChange.of(Op.EXPIRE, a[1]);
                p.ttl = verb.equals("EXPIRE") ? Math.multiplyExact(num(a[2]), 1000L) : num(a[2]);
                return p.inexact();
            }
            case "EXPIREAT":
            case "PEXPIREAT": {
                Parts p = RawChange.of(Op.EXPIRE, a[1]);
                p.expireAt = verb.equals("EXPIREAT") ? Math.multiplyExact(num(a[2]), 1000L) : num(a[2]);
                return a.length > 3 ? p.inexact() : p;
            }
            case "PERSIST":
                return RawChange.of(Op.PERSIST, a[1]);
            case "RENAME":
            case "RENAMENX": {
                Parts p = RawChange.of(Op.RENAME, a[1], a[2]);
                return verb.equals("RENAMENX") ? p.inexact() : p;
            }
            case "HSET":
            case "HMSET":
            case "HSETNX": {
                if (a.length < 4 || (a.length - 2) % 2 != 0) {
                    return null;
                }
                Parts p = RawChange.of(Op.HSET, a[1]);
                p.pairs = slice(a, 2, a.length);
                p.valueType = ValueType.HASH;
                return verb.equals("HSETNX") ? p.inexact() : p;
            }
            case "HDEL": {
                Parts p = RawChange.of(Op.HDEL, a[1]);
                p.names = slice(a, 2, a.length);
                p.valueType = ValueType.HASH;
                return p;
            }
            case "HINCRBY":
            case "HINCRBYFLOAT": {
                Parts p = RawChange.of(Op.INCR, a[1]);
                p.names = new byte[][] {a[2]};
                p.valueType = ValueType.HASH;
                return p.inexact();
            }
            case "LPUSH":
            case "RPUSH":
            case "LPUSHX":
            case "RPUSHX": {
                Parts p = RawChange.of(verb.startsWith("L") ? Op.LPUSH : Op.RPUSH, a[1]);
                p.elements = slice(a, 2, a.length);
                p.valueType = ValueType.LIST;
                if (p.elements.length == 0) {
                    return null;
                }
                return verb.endsWith("X") ? p.inexact() : p;
            }
            case "LPOP":
            case "RPOP": {
                Parts p = RawChange.of(verb.equals("LPOP") ? Op.LPOP : Op.RPOP, a[1]);
                p.count = a.length > 2 ? num(a[2]) : 1;
                p.valueType = ValueType.LIST;
                return p;
            }
            case "BLPOP":
            case "BRPOP":
                return RawChange.of(verb.equals("BLPOP") ? Op.LPOP : Op.RPOP, slice(a, 1, a.length - 1)).inexact();
            case "LMPOP":
                return numkeys(Op.LPOP, a, 1);
            case "BLMPOP":
                return numkeys(Op.LPOP, a, 2);
            case "LMOVE":
            case "RPOPLPUSH":
            case "BLMOVE":
            case "BRPOPLPUSH":
                return RawChange.of(Op.LMOVE, a[1], a[2]).inexact();
            case "LSET": {
                Parts p = RawChange.of(Op.LSET, a[1]);
                p.count = num(a[2]);
                p.value = a[3];
                return p;
            }
            case "LINSERT": {
                Parts p = RawChange.of(Op.LINSERT, a[1]);
                p.value = a[4];
                return p;
            }
            case "LREM": {
                Parts p = RawChange.of(Op.LREM, a[1]);
                p.count = num(a[2]);
                p.value = a[3];
                return p;
            }
            case "LTRIM":
                num(a[2]);
                num(a[3]);
                return RawChange.of(Op.LTRIM, a[1]);
            case "SADD":
            case "SREM": {
                Parts p = RawChange.of(verb.equals("SADD") ? Op.SADD : Op.SREM, a[1]);
                p.elements = slice(a, 2, a.length);
                p.valueType = ValueType.SET;
                return p.elements.length == 0 ? null : p;
            }
            case "SPOP":
                return RawChange.of(Op.SREM, a[1]).inexact();
            case "SMOVE": {
                Parts p = RawChange.of(Op.SMOVE, a[1], a[2]);
                p.elements = new byte[][] {a[3]};
                return p;
            }
            case "ZADD":
                return zadd(a);
            case "ZINCRBY": {
                Parts p = RawChange.of(Op.INCR, a[1]);
                p.elements = new byte[][] {a[3]};
                p.valueType = ValueType.ZSET;
                return p.inexact();
            }
            case "ZREM": {
                Parts p = RawChange.of(Op.ZREM, a[1]);
                p.elements = slice(a, 2, a.length);
                p.valueType = ValueType.ZSET;
                return p.elements.length == 0 ? null : p;
            }
            case "ZPOPMIN":
            case "ZPOPMAX":
            case "ZREMRANGEBYSCORE":
            case "ZREMRANGEBYRANK":
            case "ZREMRANGEBYLEX":
                return RawChange.of(Op.ZREM, a[1]).inexact();
            case "BZPOPMIN":
            case "BZPOPMAX":
                return RawChange.of(Op.ZREM, slice(a, 1, a.length - 1)).inexact();
            case "ZMPOP":
                return numkeys(Op.ZREM, a, 1);
            case "BZMPOP":
                return numkeys(Op.ZREM, a, 2);
            case "SINTERSTORE":
            case "SUNIONSTORE":
            case "SDIFFSTORE":
            case "ZUNIONSTORE":
            case "ZINTERSTORE":
            case "ZDIFFSTORE":
            case "ZRANGESTORE":
            case "PFMERGE":
            case "GEOSEARCHSTORE":
                return RawChange.of(Op.STORE, a[1]).inexact();
            case "BITOP":
            case "COPY":
                return RawChange.of(Op.STORE, a[2]).inexact(); // BITOP op dest ..., COPY src dest
            case "SORT":
                return sortStore(a);
            case "FLUSHALL":
            case "FLUSHDB":
                return RawChange.of(Op.FLUSH).unknownKeys();
            case "EVAL":
            case "EVALSHA":
            case "EVAL_RO":
            case "EVALSHA_RO":
            case "FCALL":
            case "FCALL_RO": {
                Parts p = numkeys(Op.EVAL, a, 2);
                return p.keys.length == 0 ? p.unknownKeys() : p;
            }
            default:
                return null;
        }
    }

    private static Parts string(byte[] key, byte[] value) {
        Parts p = RawChange.of(Op.SET, key);
        p.value = value;
        p.valueType = ValueType.STRING;
        return p;
    }

    /** {@code SET k v [NX|XX] [GET] [EX s|PX ms|EXAT s|PXAT ms|KEEPTTL]}; ours only PXAT and KEEPTTL. */
    private static Parts set(byte[][] a) {
        Parts p = string(a[1], a[2]);
        for (int i = 3; i < a.length; i++) {
            String opt = upper(a[i]);
            switch (opt) {
                case "EX":
                    p.ttl = Math.multiplyExact(num(a[++i]), 1000L);
                    p.exact = false;
                    break;
                case "PX":
                    p.ttl = num(a[++i]);
                    p.exact = false;
                    break;
                case "EXAT":
                    p.expireAt = Math.multiplyExact(num(a[++i]), 1000L);
                    break;
                case "PXAT":
                    p.expireAt = num(a[++i]);
                    break;
                case "KEEPTTL":
                    p.keepTtl = true;
                    break;
                case "NX":
                case "XX":
                case "GET":
                    p.exact = false;
                    break;
                default:
                    throw new IllegalArgumentException("SET option " + opt);
            }
        }
        return p;
    }

    private static Parts getex(byte[][] a) {
        if (a.length < 3) {
            return RawChange.of(Op.OTHER, a[1]).inexact();
        }
        String opt = upper(a[2]);
        if (opt.equals("PERSIST")) {
            return RawChange.of(Op.PERSIST, a[1]).inexact();
        }
        Parts p = RawChange.of(Op.EXPIRE, a[1]).inexact();
        long t = num(a[3]);
        switch (opt) {
            case "EX":
                p.ttl = Math.multiplyExact(t, 1000L);
                break;
            case "PX":
                p.ttl = t;
                break;
            case "EXAT":
                p.expireAt = Math.multiplyExact(t, 1000L);
                break;
            case "PXAT":
                p.expireAt = t;
                break;
            default:
                throw new IllegalArgumentException("GETEX option " + opt);
        }
        return p;
    }

    /** {@code ZADD k [NX|XX] [GT|LT] [CH] [INCR] score member ...}; ours never has flags. */
    private static Parts zadd(byte[][] a) {
        Parts p = RawChange.of(Op.ZADD, a[1]);
        p.valueType = ValueType.ZSET;
        int i = 2;
        while (i < a.length) {
            String f = upper(a[i]);
            if (f.equals("NX") || f.equals("XX") || f.equals("GT") || f.equals("LT") || f.equals("INCR")) {
                p.exact = false;
            } else if (!f.equals("CH")) {
                break;
            }
            i++;
        }
        int n = (a.length - i) / 2;
        if (n == 0 || (a.length - i) % 2 != 0) {
            return null;
        }
        p.elements = new byte[n][];
        p.scores = new double[n];
        for (int j = 0; j < n; j++) {
            p.scores[j] = score(a[i + 2 * j]);
            p.elements[j] = a[i + 2 * j + 1];
        }
        return p;
    }

    private static Parts sortStore(byte[][] a) {
        for (int i = 2; i + 1 < a.length; i++) {
            if (upper(a[i]).equals("STORE")) {
                return RawChange.of(Op.STORE, a[i + 1]).inexact();
            }
        }
        return RawChange.of(Op.OTHER, a[1]).inexact();
    }

    /** Commands whose keys follow a numkeys argument at {@code at}. */
    private static Parts numkeys(Op op, byte[][] a, int at) {
        int n = (int) num(a[at]);
        if (n < 0 || at + 1 + n > a.length) {
            throw new IllegalArgumentException("numkeys");
        }
        return RawChange.of(op, slice(a, at + 1, at + 1 + n)).inexact();
    }

    static byte[][] slice(byte[][] a, int from, int to) {
        return from >= to ? NONE : Arrays.copyOfRange(a, from, to);
    }

    private static byte[][] every(byte[][] a, int from, int step) {
        byte[][] out = new byte[Math.max(0, (a.length - from + step - 1) / step)][];
        for (int i = 0; i < out.length; i++) {
            out[i] = a[from + i * step];
        }
        return out;
    }

    private static String upper(byte[] b) {
        return new String(b, StandardCharsets.ISO_8859_1).toUpperCase(Locale.ROOT);
    }

    /** A signed decimal integer (Redis's string2ll rules, near enough for frames). */
    static long num(byte[] b) {
        return Long.parseLong(new String(b, StandardCharsets.ISO_8859_1));
    }

    /** A score as the server prints it: a decimal, or {@code inf}/{@code +inf}/{@code -inf}. */
    static double score(byte[] b) {
        String s = new String(b, StandardCharsets.ISO_8859_1).toLowerCase(Locale.ROOT);
        switch (s) {
            case "inf":
            case "+inf":
            case "infinity":
            case "+infinity":
                return Double.POSITIVE_INFINITY;
            case "-inf":
            case "-infinity":
                return Double.NEGATIVE_INFINITY;
            default:
                double d = Double.parseDouble(s);
                if (Double.isNaN(d)) {
                    throw new NumberFormatException("NaN score");
                }
                return d;
        }
    }
}
