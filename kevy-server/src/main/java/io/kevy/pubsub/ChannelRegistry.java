package io.kevy.pubsub;

import io.kevy.engine.text.Glob;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;

/**
 * Channels (or patterns) to their subscribers: Redis's {@code server.pubsub_channels}, {@code pubsub_patterns}
 * or {@code pubsubshard_channels}. A channel is present while it has at least one subscriber.
 *
 * <p>Thread-safe. Publishers read an immutable array per channel without locking; subscribe and unsubscribe
 * replace it (copy on write: publishing is far more frequent than subscribing).
 */
final class ChannelRegistry {
    private static final Subscriber[] NONE = new Subscriber[0];

    private final ConcurrentHashMap<ChannelName, Subscriber[]> byName = new ConcurrentHashMap<>();

    /** Adds {@code s} to {@code name}'s subscribers (the caller checked it was not subscribed yet). */
    void add(ChannelName name, Subscriber s) {
        byName.compute(name, (k, subs) -> {
            if (subs == null) {
                return new Subscriber[] {s};
            }
            Subscriber[] n = Arrays.copyOf(subs, subs.length + 1);
            n[subs.length] = s;
            return n;
        });
    }

    /** Removes {@code s} from {@code name}'s subscribers; the channel goes when its last subscriber does. */
    void remove(ChannelName name, Subscriber s) {
        byName.computeIfPresent(name, (k, subs) -> {
            for (int i = 0; i < subs.length; i++) {
                if (subs[i] == s) {
                    if (subs.length == 1) {
                        return null;
                    }
                    Subscriber[] n = new Subscriber[subs.length - 1];
                    System.arraycopy(subs, 0, n, 0, i);
                    System.arraycopy(subs, i + 1, n, i, subs.length - i - 1);
                    return n;
                }
            }
            return subs;
        });
    }

    /** The subscribers of {@code name}, an array nobody may change; empty when none. */
    Subscriber[] subscribers(ChannelName name) {
        Subscriber[] s = byName.get(name);
        return s == null ? NONE : s;
    }

    /** Number of channels with subscribers. */
    int size() {
        return byName.size();
    }

    boolean isEmpty() {
        return byName.isEmpty();
    }

    /** Calls {@code action} for every channel and its subscribers (a weakly consistent view). */
    void forEach(BiConsumer<ChannelName, Subscriber[]> action) {
        for (Map.Entry<ChannelName, Subscriber[]> e : byName.entrySet()) {
            action.accept(e.getKey(), e.getValue());
        }
    }

    /** The channels whose name matches the glob {@code pattern} (every one when null), in no particular order. */
    List<byte[]> names(byte[] pattern) {
        List<byte[]> out = new ArrayList<>();
        for (ChannelName n : byName.keySet()) {
            if (pattern == null || Glob.matches(pattern, n.bytes(), false)) {
                out.add(n.bytes());
            }
        }
        return out;
    }
}
