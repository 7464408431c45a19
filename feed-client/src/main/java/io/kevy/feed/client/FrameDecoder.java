package io.kevy.feed.client;

import static io.kevy.feed.client.RawChange.NONE;

import io.kevy.feed.client.RawChange.Parts;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
            case "XADD":
                return xadd(a);
            case "XTRIM":
                return xtrim(a);
            case "XDEL": {
                Parts p = stream(Op.XDEL, a[1]);
                p.ids = slice(a, 2, a.length);
                return p.ids.length == 0 ? null : p;
            }
            case "XSETID":
                return xsetid(a);
            case "XGROUP":
                return xgroup(a);
            case "XACK": {
                Parts p = stream(Op.XACK, a[1]);
                p.group = a[2];
                p.ids = slice(a, 3, a.length);
                return p.ids.length == 0 ? null : p;
            }
            case "XCLAIM":
                return xclaim(a);
            case "XAUTOCLAIM": {
                Parts p = stream(Op.XCLAIM, a[1]).inexact();
                p.group = a[2];
                p.consumer = a[3];
                return p;
            }
            case "XREADGROUP":
                return xreadgroup(a);
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

    private static Parts stream(Op op, byte[] key) {
        Parts p = RawChange.of(op, key);
        p.valueType = ValueType.STREAM;
        return p;
    }

    /**
     * {@code XADD k [NOMKSTREAM] [MAXLEN|MINID [=|~] threshold [LIMIT n]] id|* f v ...}: ours has an explicit id
     * and at most {@code MAXLEN = n} (or {@code MAXLEN 0} of a rebuilt empty stream); the rest is upstream's.
     */
    private static Parts xadd(byte[][] a) {
        Parts p = stream(Op.XADD, a[1]);
        int i = 2;
        while (i < a.length) {
            String opt = upper(a[i]);
            if (opt.equals("NOMKSTREAM")) {
                p.exact = false;
                i++;
            } else if (opt.equals("MAXLEN") || opt.equals("MINID")) {
                p.exact &= opt.equals("MAXLEN"); // upstream's MINID: the mirror would need to know what went
                i = trim(p, a, i);
            } else if (opt.equals("LIMIT")) {
                p.exact = false;
                i += 2;
            } else {
                break;
            }
        }
        if (i >= a.length || (a.length - i - 1) % 2 != 0 || a.length - i - 1 == 0) {
            return null;
        }
        if (a[i].length == 1 && a[i][0] == '*' || !explicitId(a[i])) {
            p.exact = false; // upstream: the server assigned an id the frame does not carry
        } else {
            p.ids = new byte[][] {a[i]};
        }
        p.pairs = slice(a, i + 1, a.length);
        return p;
    }

    /** {@code XTRIM k MAXLEN|MINID [=|~] threshold [LIMIT n]}: ours is always {@code MAXLEN = n}. */
    private static Parts xtrim(byte[][] a) {
        Parts p = stream(Op.XTRIM, a[1]);
        int i = trim(p, a, 2);
        if (i < a.length && upper(a[i]).equals("LIMIT")) {
            p.exact = false;
            i += 2;
        }
        return i == a.length ? p : null;
    }

    /**
     * Reads a trim strategy at {@code a[i]}: {@code MAXLEN [=] n} sets count, {@code MINID [=] id} the id (a
     * rebuilt stream's {@code XTRIM k MINID <first>}); {@code ~} marks the change inexact (the frame does not
     * say what was removed).
     */
    private static int trim(Parts p, byte[][] a, int i) {
        boolean maxlen = upper(a[i]).equals("MAXLEN");
        i++;
        boolean approx = false;
        if (a[i].length == 1 && (a[i][0] == '=' || a[i][0] == '~')) {
            approx = a[i][0] == '~';
            i++;
        }
        if (maxlen) {
            p.count = num(a[i]);
        } else {
            p.ids = new byte[][] {a[i]};
        }
        if (approx) {
            p.exact = false;
        }
        return i + 1;
    }

    /** An id {@code ms-seq} or {@code ms} (not {@code *}, not {@code ms-*}). */
    private static boolean explicitId(byte[] id) {
        for (byte b : id) {
            if (b == '*') {
                return false;
            }
        }
        return true;
    }

    /** {@code XSETID k id [ENTRIESADDED n] [MAXDELETEDID id]}. */
    private static Parts xsetid(byte[][] a) {
        Parts p = stream(Op.XSETID, a[1]);
        p.ids = new byte[][] {a[2]};
        p.streamMeta = new byte[][] {a[2], null, null};
        for (int i = 3; i + 1 < a.length; i += 2) {
            String opt = upper(a[i]);
            if (opt.equals("ENTRIESADDED")) {
                num(a[i + 1]);
                p.streamMeta[1] = a[i + 1];
            } else if (opt.equals("MAXDELETEDID")) {
                p.streamMeta[2] = a[i + 1];
            } else {
                return null;
            }
        }
        return (a.length - 3) % 2 == 0 ? p : null;
    }

    /**
     * {@code XGROUP CREATE k g id [MKSTREAM] [ENTRIESREAD n]}, {@code SETID k g id [ENTRIESREAD n]},
     * {@code DESTROY k g}, {@code CREATECONSUMER|DELCONSUMER k g c}: the key is argv[2]; upstream's {@code $}
     * id is inexact (the frame does not say which id it meant).
     */
    private static Parts xgroup(byte[][] a) {
        String sub = upper(a[1]);
        Parts p = stream(Op.XGROUP, a[2]);
        p.group = a[3];
        switch (sub) {
            case "CREATE":
            case "SETID":
                p.ids = new byte[][] {a[4]};
                if (a[4].length == 1 && a[4][0] == '$') {
                    p.exact = false;
                }
                return p;
            case "DESTROY":
                return p;
            case "CREATECONSUMER":
            case "DELCONSUMER":
                p.consumer = a[4];
                return p;
            default:
                return null;
        }
    }

    /** {@code XCLAIM k g c min-idle id ... [options]}: ours always ends in {@code FORCE JUSTID}. */
    private static Parts xclaim(byte[][] a) {
        Parts p = stream(Op.XCLAIM, a[1]);
        p.group = a[2];
        p.consumer = a[3];
        num(a[4]);
        int i = 5;
        List<byte[]> ids = new ArrayList<>();
        while (i < a.length && Character.isDigit(a[i].length == 0 ? 'x' : a[i][0])) {
            ids.add(a[i++]);
        }
        p.ids = ids.toArray(new byte[0][]);
        boolean justId = false;
        for (; i < a.length; i++) {
            justId |= upper(a[i]).equals("JUSTID");
        }
        if (!justId || ids.isEmpty()) {
            p.exact = false; // upstream's XCLAIM as sent: the frame does not say which entries it claimed
        }
        return p;
    }

    /** Upstream {@code XREADGROUP GROUP g c [COUNT n] [BLOCK ms] [NOACK] STREAMS k ... id ...}: keys only. */
    private static Parts xreadgroup(byte[][] a) {
        int s = -1;
        for (int i = 1; i < a.length; i++) {
            if (upper(a[i]).equals("STREAMS")) {
                s = i;
                break;
            }
        }
        int n = (a.length - s - 1) / 2;
        if (s < 0 || n == 0 || (a.length - s - 1) % 2 != 0) {
            return null;
        }
        Parts p = RawChange.of(Op.XCLAIM, slice(a, s + 1, s + 1 + n)).inexact();
        p.valueType = ValueType.STREAM;
        p.group = a[2];
        p.consumer = a[3];
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
