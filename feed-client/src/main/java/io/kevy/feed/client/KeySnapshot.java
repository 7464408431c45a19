package io.kevy.feed.client;

import java.util.Arrays;
import java.util.List;

/**
 * A key's whole value and TTL as read for a rebuild ({@link FeedSource#snapshot}), in a flat byte form:
 * <ul>
 *   <li>{@link ValueType#STRING}: one element, the value;</li>
 *   <li>{@link ValueType#LIST}: the elements in order ({@code LRANGE 0 -1});</li>
 *   <li>{@link ValueType#SET}: the members ({@code SMEMBERS}, unordered);</li>
 *   <li>{@link ValueType#HASH}: field, value, field, value ... ({@code HGETALL});</li>
 *   <li>{@link ValueType#ZSET}: member, score, member, score ... ascending ({@code ZRANGE 0 -1 WITHSCORES}),
 *       scores as the server prints them;</li>
 *   <li>{@link ValueType#STREAM}: last-generated-id, entries-added (-1 when the plain read could not tell),
 *       max-deleted-entry-id, then per entry ({@code XRANGE - +}, ascending): its id, the number n of field and
 *       value elements (ASCII decimal), and those n elements (field, value ...); consumer groups are not read;</li>
 *   <li>{@link ValueType#OTHER}: empty (not read).</li>
 * </ul>
 * Immutable by convention: do not modify the arrays. Equality compares the bytes.
 *
 * @param key       the key
 * @param type      its type
 * @param value     the flat value, as above
 * @param ttlMillis the remaining TTL in milliseconds as {@code PTTL} answered, or -1 when the key has none
 * @param expireAtMillis the absolute expiry in ms since the epoch as {@code PEXPIRETIME} answered, or -1 when
 *                  the key has no TTL or the server does not know PEXPIRETIME (the rebuild then uses read time +
 *                  TTL)
 */
public record KeySnapshot(byte[] key, ValueType type, List<byte[]> value, long ttlMillis, long expireAtMillis) {
    public KeySnapshot {
        value = List.copyOf(value);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof KeySnapshot s) || s.type != type || s.ttlMillis != ttlMillis
                || s.expireAtMillis != expireAtMillis || !Arrays.equals(s.key, key)
                || s.value.size() != value.size()) {
            return false;
        }
        for (int i = 0; i < value.size(); i++) {
            if (!Arrays.equals(s.value.get(i), value.get(i))) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(key) * 31 + type.hashCode();
    }

    @Override
    public String toString() {
        return "KeySnapshot[" + new String(key, java.nio.charset.StandardCharsets.UTF_8) + " " + type.word() + " "
                + value.size() + " element(s), pttl " + ttlMillis + "]";
    }
}
