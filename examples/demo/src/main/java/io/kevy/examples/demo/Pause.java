package io.kevy.examples.demo;

import io.kevy.feed.client.Batch;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Holds a consumer's shard threads while on: installed as the consumer's after-batch hook, it blocks each
 * shard's thread in the first batch that arrives after {@link #on()} until {@link #off()}. Thread-safe.
 */
final class Pause {
    private final Set<Integer> held = ConcurrentHashMap.newKeySet();
    private volatile boolean on;

    void on() {
        held.clear();
        on = true;
    }

    synchronized void off() {
        on = false;
        notifyAll();
    }

    /** How many shards' threads are held now. */
    int heldShards() {
        return held.size();
    }

    /** The hook: returns at once when off, else waits until {@link #off()}. */
    void hold(Batch<?, ?> batch) {
        if (!on) {
            return;
        }
        held.add(batch.shard());
        synchronized (this) {
            while (on) {
                try {
                    wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        held.remove(batch.shard());
    }
}
