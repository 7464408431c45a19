package io.kevy.engine.command;

import io.kevy.engine.Keyspace;
import io.kevy.engine.text.RedisNumbers;
import io.kevy.engine.type.RedisValue;
import io.kevy.resp.Verbs;

/**
 * Emits a value as the commands that rebuild it under another key (feed contract §7, cross-shard RENAME and
 * COPY): {@code SET dst v} for a string, {@link RedisValue#rebuild} for any other type, then
 * {@code PEXPIREAT dst <abs-ms>} when it has a TTL. Works for every type through the {@link RedisValue}
 * interface.
 */
final class ValueFrames {
    private ValueFrames() {
    }

    /**
     * Emits the rebuild of {@code value} under {@code dst} on {@code dst}'s shard, which the caller holds.
     *
     * @param expireAt the absolute expiry in ms, or {@link Keyspace#NO_EXPIRY}
     */
    static void rebuild(Call c, byte[] dst, Object value, long expireAt) {
        if (value instanceof byte[] s) {
            c.emit(Verbs.SET, dst, s);
        } else {
            ((RedisValue) value).rebuild(dst, c::emit);
        }
        if (expireAt != Keyspace.NO_EXPIRY) {
            c.emit(Verbs.PEXPIREAT, dst, RedisNumbers.toBytes(expireAt));
        }
    }

    /** A copy of {@code value} for another key: strings are immutable and shared, collections deep-copied. */
    static Object copy(Object value) {
        return value instanceof RedisValue rv ? rv.copy() : value;
    }
}
