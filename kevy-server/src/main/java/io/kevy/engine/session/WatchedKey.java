package io.kevy.engine.session;

import io.kevy.engine.KeySignals;

/**
 * One key WATCHed by one session: the entry shared by the session's list of watched keys and the registry of
 * the key's shard ({@link KeySignals}).
 *
 * <p>Redis 7.0 remembers whether the key was already logically expired (still stored, time passed) when WATCH
 * ran: such a key being reaped later is no change (it was already absent for the watcher), and EXEC does not
 * count it as "expired since WATCH". The flag is read and written under the shard's lock only.
 */
public final class WatchedKey {
    private final Session session;
    private final int shard;
    private final byte[] key;
    private boolean expiredAtWatch;

    public WatchedKey(Session session, int shard, byte[] key, boolean expiredAtWatch) {
        this.session = session;
        this.shard = shard;
        this.key = key;
        this.expiredAtWatch = expiredAtWatch;
    }

    public Session session() {
        return session;
    }

    /** The index of the key's shard. */
    public int shard() {
        return shard;
    }

    /** The watched key; must not be mutated. */
    public byte[] key() {
        return key;
    }

    /** True while the key counts as "already expired when WATCH ran"; under the shard's lock. */
    public boolean expiredAtWatch() {
        return expiredAtWatch;
    }

    public void expiredAtWatch(boolean expired) {
        this.expiredAtWatch = expired;
    }
}
