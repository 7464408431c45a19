package io.kevy.bridge.kafka.support;

import io.kevy.testing.TestServer;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.NestedMultiOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import java.util.ArrayDeque;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Seeded mixed writes over lettuce (pipelined, 64 in flight per connection): strings, MSET across prefixes,
 * multi-key DEL, hashes, lists, sets, sorted sets, EXPIRE, RENAME, INCR, on keys under {@code user:},
 * {@code order:}, {@code misc:} and {@code other:} (the last one outside the bridges' prefixes).
 */
public final class Writes {
    private static final String[] PREFIXES = {"user:", "order:", "misc:", "other:"};
    private static final int WINDOW = 64;

    private final TestServer server;
    private final long seed;
    private final int keys;
    public final AtomicLong done = new AtomicLong();

    public Writes(TestServer server, long seed, int keys) {
        this.server = server;
        this.seed = seed;
        this.keys = keys;
    }

    /** {@code n} writes from {@code writers} threads; returns when all are acknowledged. */
    public void run(int writers, int n) throws Exception {
        run(writers, n, 0, new AtomicBoolean());
    }

    /**
     * Up to {@code n} writes from {@code writers} threads, paced at {@code perSecond} in total (0: as fast as
     * possible), until {@code stop} is set.
     */
    public void run(int writers, int n, int perSecond, AtomicBoolean stop) throws Exception {
        Thread[] ts = new Thread[writers];
        Exception[] failure = new Exception[1];
        for (int w = 0; w < writers; w++) {
            int writer = w;
            int count = n / writers + (w < n % writers ? 1 : 0);
            ts[w] = new Thread(() -> {
                try {
                    write(writer, count, perSecond == 0 ? 0 : Math.max(1, perSecond / writers), stop);
                } catch (Exception e) {
                    failure[0] = e;
                }
            }, "writer-" + w);
            ts[w].start();
        }
        for (Thread t : ts) {
            t.join();
        }
        if (failure[0] != null) {
            throw failure[0];
        }
    }

    private void write(int writer, int n, int perSecond, AtomicBoolean stop) throws Exception {
        try (StatefulRedisConnection<String, String> c = server.client().connect()) {
            ArrayDeque<CompletableFuture<?>> inFlight = new ArrayDeque<>();
            Random rnd = new Random(seed * 31 + writer);
            long t0 = System.nanoTime();
            for (int i = 0; i < n && !stop.get(); i++) {
                if (perSecond > 0) {
                    long due = t0 + i * 1_000_000_000L / perSecond;
                    long wait = due - System.nanoTime();
                    if (wait > 0) {
                        TimeUnit.NANOSECONDS.sleep(wait);
                    }
                }
                String[] argv = next(rnd, writer, i);
                CommandArgs<String, String> args = new CommandArgs<>(StringCodec.UTF8);
                for (int a = 1; a < argv.length; a++) {
                    args.add(argv[a]);
                }
                if (inFlight.size() >= WINDOW) {
                    inFlight.poll().get(30, TimeUnit.SECONDS);
                }
                inFlight.add(c.async().dispatch(CommandType.valueOf(argv[0]),
                        new NestedMultiOutput<>(StringCodec.UTF8), args).toCompletableFuture()
                        .handle((r, e) -> r));
                done.incrementAndGet();
            }
            for (CompletableFuture<?> f : inFlight) {
                f.get(30, TimeUnit.SECONDS);
            }
        }
    }

    private String key(Random rnd, String prefix, String type) {
        return prefix + type + ":" + rnd.nextInt(keys);
    }

    private String[] next(Random rnd, int writer, int i) {
        String prefix = PREFIXES[rnd.nextInt(PREFIXES.length)];
        String token = "w" + writer + "-" + i;
        int op = rnd.nextInt(100);
        if (op < 25) {
            return new String[] {"SET", key(rnd, prefix, "s"), token};
        } else if (op < 35) {
            return new String[] {"MSET", key(rnd, prefix, "s"), token, key(rnd, PREFIXES[rnd.nextInt(4)], "s"),
                    token + "b", key(rnd, PREFIXES[rnd.nextInt(4)], "s"), token + "c"};
        } else if (op < 42) {
            return new String[] {"DEL", key(rnd, prefix, "s"), key(rnd, PREFIXES[rnd.nextInt(4)], "s")};
        } else if (op < 55) {
            return new String[] {"HSET", key(rnd, prefix, "h"), "f" + rnd.nextInt(4), token};
        } else if (op < 63) {
            return new String[] {"RPUSH", key(rnd, prefix, "l"), token};
        } else if (op < 70) {
            return new String[] {"SADD", key(rnd, prefix, "set"), token};
        } else if (op < 77) {
            return new String[] {"ZADD", key(rnd, prefix, "z"), Integer.toString(rnd.nextInt(100)), token};
        } else if (op < 84) {
            return new String[] {"INCR", key(rnd, prefix, "n")};
        } else if (op < 90) {
            return new String[] {"EXPIRE", key(rnd, prefix, "s"), "3600"};
        } else if (op < 95) {
            return new String[] {"RENAME", key(rnd, prefix, "h"), key(rnd, prefix, "h")};
        } else {
            return new String[] {"LPOP", key(rnd, prefix, "l")};
        }
    }
}
