package io.kevy.engine.command;

import io.kevy.engine.Keyspace;
import io.kevy.engine.struct.Dict;
import io.kevy.engine.text.Bytes;
import io.kevy.engine.text.RedisNumbers;
import io.kevy.engine.type.HashValue;
import io.kevy.engine.type.RedisValue;
import io.kevy.engine.type.ValueType;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * DEBUG DIGEST and DIGEST-VALUE with Redis 7.0's algorithm ({@code debug.c}: SHA1 mixing and XOR folding), so
 * the same data set gives the same digest on kevy and on Redis, whatever the iteration order. Collections other
 * than hashes are read through {@link RedisValue#rebuild} (RPUSH, SADD, ZADD frames), which lists their elements.
 *
 * <p>Not thread-safe: one instance per computation.
 */
final class DebugDigest {
    private static final byte[] EXPIRE = "!!expire!!".getBytes(StandardCharsets.US_ASCII);
    private final MessageDigest sha1;

    DebugDigest() {
        try {
            sha1 = MessageDigest.getInstance("SHA-1");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is required by the JDK", e);
        }
    }

    /** Hex of a 20-byte digest (40 zeros for the empty digest). */
    static String hex(byte[] digest) {
        return HexFormat.of().formatHex(digest);
    }

    /** {@code digest ^= SHA1(data)}. */
    void xor(byte[] digest, byte[] data) {
        byte[] h = sha1.digest(data);
        for (int i = 0; i < 20; i++) {
            digest[i] ^= h[i];
        }
    }

    /** {@code digest = SHA1(digest ^ SHA1(data))}. */
    void mix(byte[] digest, byte[] data) {
        xor(digest, data);
        System.arraycopy(sha1.digest(digest), 0, digest, 0, 20);
    }

    /**
     * Mixes one key's value and TTL into {@code digest} in place (Redis's {@code xorObjectDigest}): the type,
     * then a string's bytes or a list's elements in order (mixed), a set's, hash's or sorted set's elements
     * (XOR-folded, order-free), then a marker when the key has a TTL.
     */
    void objectDigest(byte[] digest, Dict.Node<Object> node) {
        Object value = node.value();
        ValueType type = Keyspace.typeOf(value);
        mix(digest, new byte[] {0, 0, 0, (byte) type.ordinal()});
        switch (type) {
            case STRING -> mix(digest, (byte[]) value);
            case HASH -> ((HashValue) value).forEach((f, v) -> {
                byte[] e = new byte[20];
                mix(e, f);
                mix(e, v);
                xor(digest, e);
            });
            case STREAM -> ((RedisValue) value).rebuild(node.key(), frame -> {
                for (int i = 2; i < frame.length; i++) {
                    mix(digest, frame[i]); // kevy's own order-sensitive digest of the rebuild (not Redis's bytes)
                }
            });
            default -> ((RedisValue) value).rebuild(node.key(), frame -> {
                byte[][] elements = Arrays.copyOfRange(frame, 2, frame.length);
                switch (type) {
                    case LIST -> {
                        for (byte[] e : elements) {
                            mix(digest, e);
                        }
                    }
                    case SET -> {
                        for (byte[] e : elements) {
                            xor(digest, e);
                        }
                    }
                    default -> {
                        for (int i = 0; i + 1 < elements.length; i += 2) {
                            byte[] e = new byte[20];
                            mix(e, elements[i + 1]);
                            double score = RedisNumbers.parseDoubleOrNaN(elements[i]);
                            mix(e, Bytes.utf8(RedisNumbers.formatDouble(score)));
                            xor(digest, e);
                        }
                    }
                }
            });
        }
        if (Keyspace.expiry(node) != Keyspace.NO_EXPIRY) {
            xor(digest, EXPIRE);
        }
    }

    /** Folds one key into the data-set digest {@code total} (Redis's {@code computeDatasetDigest} loop body). */
    void addKey(byte[] total, Dict.Node<Object> node) {
        byte[] d = new byte[20];
        mix(d, node.key());
        objectDigest(d, node);
        xor(total, d);
    }
}
