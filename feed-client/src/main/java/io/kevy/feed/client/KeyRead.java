package io.kevy.feed.client;

import java.util.Optional;

/**
 * One key as a rebuild read it ({@link FeedSource#reads}), with the feed position of the read: the value (or
 * its absence) together with the cursor of the key's shard at which it was read.
 *
 * <ul>
 *   <li>{@code exact} (our server's {@code FEED.VALUE}, the embedded store, and on a server without it, upstream
 *       kevy, the key's reads and {@code FEED.TAIL} in one {@code MULTI}/{@code EXEC}): value and cursor were read
 *       atomically, so the value holds exactly the effects of the frames below {@code at.offset()} and none at or
 *       above it (for the transaction: as far as the server runs EXEC atomically, as ours does).</li>
 *   <li>not {@code exact} (a server that refuses that transaction too: {@code FEED.TAIL} of the shard, then the
 *       plain reads): the value holds at least the frames below {@code at.offset()}, and possibly some after it
 *       (those made while the read ran).</li>
 * </ul>
 * Immutable by convention (do not modify the arrays).
 *
 * @param key      the key
 * @param at       the cursor of the key's shard at the read ({@code at.shard()} is the key's shard, §2)
 * @param snapshot the key's type, value and TTL; null when the key did not exist at the read
 * @param exact    true when value and cursor were read in one atomic step (see above)
 */
public record KeyRead(byte[] key, Cursor at, KeySnapshot snapshot, boolean exact) {
    public KeyRead {
        java.util.Objects.requireNonNull(key, "key");
        java.util.Objects.requireNonNull(at, "at");
    }

    /** The snapshot, empty when the key did not exist at {@link #at()}. */
    public Optional<KeySnapshot> value() {
        return Optional.ofNullable(snapshot);
    }

    @Override
    public String toString() {
        return "KeyRead[" + new String(key, java.nio.charset.StandardCharsets.UTF_8) + " at " + at
                + (snapshot == null ? " absent" : " " + snapshot.type().word()) + (exact ? "" : " (not exact)") + "]";
    }
}
