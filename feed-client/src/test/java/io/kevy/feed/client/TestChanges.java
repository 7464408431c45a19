package io.kevy.feed.client;

import io.lettuce.core.codec.RedisCodec;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Frames and changes for tests. */
public final class TestChanges {
    /** One frame of every shape the decoder knows, ours and upstream's, plus malformed and unknown ones. */
    public static final List<String[]> ALL_SHAPES = List.of(
            new String[] {"SET", "k", "v"}, new String[] {"SET", "k", "v", "PXAT", "1800000000000"},
            new String[] {"SET", "k", "v", "KEEPTTL"}, new String[] {"set", "k", "v", "EX", "10", "NX"},
            new String[] {"SETEX", "k", "10", "v"}, new String[] {"PSETEX", "k", "10", "v"},
            new String[] {"SETNX", "k", "v"}, new String[] {"GETSET", "k", "v"}, new String[] {"GETDEL", "k"},
            new String[] {"GETEX", "k", "PX", "100"}, new String[] {"GETEX", "k", "PERSIST"},
            new String[] {"MSET", "a", "1", "b", "2"}, new String[] {"MSETNX", "a", "1"},
            new String[] {"INCR", "n"}, new String[] {"incrby", "n", "5"}, new String[] {"INCRBYFLOAT", "n", "1.5"},
            new String[] {"DEL", "a"}, new String[] {"DEL", "a", "b"}, new String[] {"UNLINK", "a", "b"},
            new String[] {"EXPIRE", "k", "10"}, new String[] {"PEXPIRE", "k", "10", "NX"},
            new String[] {"PEXPIREAT", "k", "1800000000000"}, new String[] {"EXPIREAT", "k", "1800000000"},
            new String[] {"PERSIST", "k"}, new String[] {"RENAME", "a", "b"}, new String[] {"RENAMENX", "a", "b"},
            new String[] {"HSET", "h", "f", "v", "g", "w"}, new String[] {"HMSET", "h", "f", "v"},
            new String[] {"HSETNX", "h", "f", "v"}, new String[] {"HDEL", "h", "f", "g"},
            new String[] {"HINCRBY", "h", "f", "1"}, new String[] {"LPUSH", "l", "a", "b"},
            new String[] {"RPUSH", "l", "a"}, new String[] {"LPUSHX", "l", "a"}, new String[] {"LPOP", "l", "2"},
            new String[] {"RPOP", "l"}, new String[] {"BLPOP", "l1", "l2", "0"},
            new String[] {"LMPOP", "2", "l1", "l2", "LEFT"}, new String[] {"LMOVE", "a", "b", "LEFT", "RIGHT"},
            new String[] {"RPOPLPUSH", "a", "b"}, new String[] {"LSET", "l", "-1", "x"},
            new String[] {"LINSERT", "l", "BEFORE", "p", "x"}, new String[] {"LREM", "l", "-2", "x"},
            new String[] {"LTRIM", "l", "1", "-1"}, new String[] {"SADD", "s", "a", "b"},
            new String[] {"SREM", "s", "a"}, new String[] {"SPOP", "s", "2"}, new String[] {"SMOVE", "a", "b", "m"},
            new String[] {"ZADD", "z", "1", "a", "2.5", "b"}, new String[] {"ZADD", "z", "XX", "CH", "1", "a"},
            new String[] {"ZADD", "z", "INCR", "1", "a"}, new String[] {"ZINCRBY", "z", "1", "a"},
            new String[] {"ZREM", "z", "a"}, new String[] {"ZPOPMIN", "z", "2"},
            new String[] {"ZREMRANGEBYSCORE", "z", "0", "1"}, new String[] {"BZPOPMAX", "z1", "z2", "0"},
            new String[] {"ZMPOP", "1", "z", "MIN"}, new String[] {"SINTERSTORE", "d", "a", "b"},
            new String[] {"ZUNIONSTORE", "d", "2", "a", "b"}, new String[] {"BITOP", "AND", "d", "a", "b"},
            new String[] {"COPY", "a", "d"}, new String[] {"SORT", "l", "ALPHA", "STORE", "d"},
            new String[] {"FLUSHALL"}, new String[] {"FLUSHDB", "ASYNC"},
            new String[] {"EVAL", "return 1", "0"}, new String[] {"EVAL", "redis.call('set',KEYS[1],'x')", "1", "k"},
            new String[] {"EVALSHA", "abc", "2", "k1", "k2", "arg"}, new String[] {"FCALL", "f", "1", "k"},
            new String[] {"XADD", "s", "*", "f", "v"}, new String[] {"APPEND", "k", "x"},
            new String[] {"SETRANGE", "k", "0", "x"}, new String[] {"PFADD", "hll", "a"},
            new String[] {"EXPIRE", "k", "notanumber"}, new String[] {"SET", "k"}, new String[] {"HSET", "h", "f"},
            new String[] {"ZADD", "z", "nan", "a"}, new String[] {"NOSUCHVERB", "k"}, new String[] {"PING"});

    private TestChanges() {
    }

    /** A frame of UTF-8 arguments. */
    public static Frame frame(long offset, String... argv) {
        byte[][] a = new byte[argv.length][];
        for (int i = 0; i < a.length; i++) {
            a[i] = argv[i].getBytes(StandardCharsets.UTF_8);
        }
        return new Frame(offset, a);
    }

    /** A SNAPSHOT change of {@code snap} (the package-private factory, for tests elsewhere). */
    public static <K, V> Change<K, V> snapshot(RedisCodec<K, V> codec, Cursor carried, long n, KeySnapshot snap,
            long readAtMillis) {
        return Change.snapshot(codec, carried, n, snap, readAtMillis);
    }

    /** A VANISHED change. */
    public static <K, V> Change<K, V> vanished(RedisCodec<K, V> codec, Cursor carried, long n, byte[] key) {
        return Change.vanished(codec, carried, n, key, 0);
    }

    public static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
