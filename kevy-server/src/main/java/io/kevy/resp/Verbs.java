package io.kevy.resp;

import java.nio.charset.StandardCharsets;

/**
 * Upper-case verbs and keywords of synthesised effect frames (feed contract §7). Shared constants: frames
 * reuse these arrays, so they must never be mutated.
 */
public final class Verbs {
    public static final byte[] SET = ascii("SET");
    public static final byte[] DEL = ascii("DEL");
    public static final byte[] MSET = ascii("MSET");
    public static final byte[] PEXPIREAT = ascii("PEXPIREAT");
    public static final byte[] PERSIST = ascii("PERSIST");
    public static final byte[] RENAME = ascii("RENAME");
    public static final byte[] HSET = ascii("HSET");
    public static final byte[] HDEL = ascii("HDEL");
    public static final byte[] LPUSH = ascii("LPUSH");
    public static final byte[] RPUSH = ascii("RPUSH");
    public static final byte[] LPOP = ascii("LPOP");
    public static final byte[] RPOP = ascii("RPOP");
    public static final byte[] LSET = ascii("LSET");
    public static final byte[] LINSERT = ascii("LINSERT");
    public static final byte[] LREM = ascii("LREM");
    public static final byte[] LTRIM = ascii("LTRIM");
    public static final byte[] SADD = ascii("SADD");
    public static final byte[] SREM = ascii("SREM");
    public static final byte[] ZADD = ascii("ZADD");
    public static final byte[] ZREM = ascii("ZREM");

    public static final byte[] PXAT = ascii("PXAT");
    public static final byte[] KEEPTTL = ascii("KEEPTTL");

    private Verbs() {
    }

    /** ASCII bytes of a constant. */
    public static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
