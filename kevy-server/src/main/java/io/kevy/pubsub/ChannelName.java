package io.kevy.pubsub;

import java.util.Arrays;

/**
 * A channel name or pattern as binary-safe bytes, usable as a map key (Redis channels are arbitrary byte
 * strings, like keys).
 *
 * <p>Immutable: the array is not copied, so callers must not change it afterwards. Thread-safe.
 */
public final class ChannelName {
    private final byte[] bytes;
    private final int hash;

    public ChannelName(byte[] bytes) {
        this.bytes = bytes;
        this.hash = Arrays.hashCode(bytes);
    }

    /** The name's bytes (not a copy: do not change). */
    public byte[] bytes() {
        return bytes;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ChannelName c && c.hash == hash && Arrays.equals(c.bytes, bytes);
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public String toString() {
        return new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
    }
}
