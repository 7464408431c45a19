package io.kevy.bridge.kafka.connect;

import io.kevy.testing.TestServer;
import io.lettuce.core.api.StatefulRedisConnection;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * SETs whose values number each key's writes: key {@code <prefix>k<i>} gets the values 0, 1, 2 ... in order
 * (each key has one writer thread and one pipelined connection, so the server applies them in that order).
 * Keys alternate between the prefixes.
 */
final class KeyedWrites {
    private final TestServer server;
    private final String[] prefixes;
    private final int keys;
    final AtomicLong done = new AtomicLong();
    private int rounds;

    KeyedWrites(TestServer server, int keys, String... prefixes) {
        this.server = server;
        this.keys = keys;
        this.prefixes = prefixes;
    }

    String key(int i) {
        return prefixes[i % prefixes.length] + "k" + i;
    }

    /** Values written per key so far. */
    int rounds() {
        return rounds;
    }

    /**
     * {@code rounds} more values for every key (the next numbers), from {@code writers} threads, at about
     * {@code perSecond} in all; returns when all are acknowledged.
     */
    void run(int writers, int rounds, int perSecond) throws Exception {
        int from = this.rounds;
        Thread[] ts = new Thread[writers];
        Exception[] failure = new Exception[1];
        for (int w = 0; w < writers; w++) {
            int writer = w;
            ts[w] = new Thread(() -> {
                try {
                    write(writer, writers, from, from + rounds, perSecond / writers);
                } catch (Exception e) {
                    failure[0] = e;
                }
            }, "keyed-writer-" + w);
            ts[w].start();
        }
        for (Thread t : ts) {
            t.join();
        }
        if (failure[0] != null) {
            throw failure[0];
        }
        this.rounds = from + rounds;
    }

    private void write(int writer, int writers, int from, int to, int perSecond) throws Exception {
        int mine = keys / writers;
        try (StatefulRedisConnection<String, String> c = server.client().connect()) {
            ArrayDeque<CompletableFuture<?>> inFlight = new ArrayDeque<>();
            long t0 = System.nanoTime();
            long i = 0;
            for (int seq = from; seq < to; seq++) {
                for (int k = 0; k < mine; k++, i++) {
                    long due = t0 + i * 1_000_000_000L / perSecond;
                    long wait = due - System.nanoTime();
                    if (wait > 0) {
                        TimeUnit.NANOSECONDS.sleep(wait);
                    }
                    if (inFlight.size() >= 64) {
                        inFlight.poll().get(30, TimeUnit.SECONDS);
                    }
                    inFlight.add(c.async().set(key(writer + k * writers), Integer.toString(seq)).toCompletableFuture());
                    done.incrementAndGet();
                }
            }
            for (CompletableFuture<?> f : inFlight) {
                f.get(30, TimeUnit.SECONDS);
            }
        }
    }
}
