package io.kevy.feed.client.support;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.ArrayDeque;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.IntFunction;

/**
 * Seeded mixed writes from several writer threads, each on its own connection and its own keys
 * ({@code <prefix>w<writer>:<type>:<i>}), so one key's writes are acknowledged in one writer's order. Each
 * token-carrying write (SET, MSET, HSET, RPUSH, SADD, ZADD with a value {@code t<writer>-<seq>}) is recorded per
 * key once acknowledged; DEL, EXPIRE, PERSIST, LPOP, SREM, ZREM, HDEL, INCR-free edits make the mix.
 */
public final class Workload {
    /**
     * Sends one command on a writer's connection (UTF-8 arguments); the stage completes with the reply. A
     * connection answers in send order, so the order of sending is the order of acknowledgement.
     */
    public interface Conn extends Function<String[], CompletableFuture<?>> {
    }

    /** Commands in flight per writer. */
    private static final int WINDOW = 64;

    private final long seed;
    private final int keysPerWriter;
    private final String prefix;
    private final Map<String, List<String>> acknowledged = new ConcurrentHashMap<>();
    public final AtomicLong writes = new AtomicLong();

    public Workload(long seed, int keysPerWriter, String prefix) {
        this.seed = seed;
        this.keysPerWriter = keysPerWriter;
        this.prefix = prefix;
    }

    /** Tokens per key in acknowledged order. */
    public Map<String, List<String>> acknowledged() {
        return acknowledged;
    }

    /** Runs {@code total} writes spread over {@code writers} threads, each with {@code conn.apply(writer)}. */
    public void run(int writers, int total, IntFunction<Conn> conn) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            List<Future<?>> fs = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                final int writer = w;
                final int n = total / writers + (w < total % writers ? 1 : 0);
                fs.add(pool.submit(() -> {
                    write(writer, n, conn.apply(writer));
                    return null;
                }));
            }
            for (Future<?> f : fs) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static final String[] TYPES = {"str", "hash", "list", "set", "zset"};

    private void write(int writer, int n, Conn conn) throws Exception {
        ArrayDeque<CompletableFuture<?>> inFlight = new ArrayDeque<>();
        Function<String[], Object> c = argv -> {
            if (inFlight.size() >= WINDOW) {
                inFlight.poll().join();
            }
            inFlight.add(conn.apply(argv));
            return null;
        };
        Random rnd = new Random(seed * 31 + writer);
        for (int seq = 0; seq < n; seq++) {
            int type = rnd.nextInt(TYPES.length);
            String key = prefix + "w" + writer + ":" + TYPES[type] + ":" + rnd.nextInt(keysPerWriter);
            String token = "t" + writer + "-" + seq;
            int op = rnd.nextInt(100);
            if (op < 4) {
                c.apply(new String[] {"DEL", key});
            } else if (op < 7) {
                c.apply(new String[] {"EXPIRE", key, "3600"});
            } else if (op < 8) {
                c.apply(new String[] {"PERSIST", key});
            } else {
                switch (type) {
                    case 0:
                        if (op < 20) {
                            String other = prefix + "w" + writer + ":str:" + rnd.nextInt(keysPerWriter);
                            String token2 = "t" + writer + "-" + seq + "b";
                            c.apply(new String[] {"MSET", key, token, other, token2});
                            ack(key, token);
                            ack(other, token2);
                        } else {
                            c.apply(new String[] {"SET", key, token});
                            ack(key, token);
                        }
                        break;
                    case 1:
                        if (op < 25) {
                            c.apply(new String[] {"HDEL", key, "f" + rnd.nextInt(5)});
                        } else {
                            c.apply(new String[] {"HSET", key, "f" + rnd.nextInt(5), token});
                            ack(key, token);
                        }
                        break;
                    case 2:
                        if (op < 25) {
                            c.apply(new String[] {"LPOP", key});
                        } else {
                            c.apply(new String[] {"RPUSH", key, token});
                            ack(key, token);
                        }
                        break;
                    case 3:
                        if (op < 25) {
                            c.apply(new String[] {"SPOP", key});
                        } else {
                            c.apply(new String[] {"SADD", key, token});
                            ack(key, token);
                        }
                        break;
                    default:
                        if (op < 25) {
                            c.apply(new String[] {"ZPOPMIN", key});
                        } else {
                            c.apply(new String[] {"ZADD", key, Integer.toString(rnd.nextInt(1000)), token});
                            ack(key, token);
                        }
                        break;
                }
            }
            writes.incrementAndGet();
        }
        for (CompletableFuture<?> f : inFlight) {
            f.get();
        }
    }

    private void ack(String key, String token) {
        acknowledged.computeIfAbsent(key, k -> new ArrayList<>()).add(token);
    }
}
