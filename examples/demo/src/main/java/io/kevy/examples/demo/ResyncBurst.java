package io.kevy.examples.demo;

import io.kevy.examples.search.DebianPackage;
import io.kevy.examples.support.HoldBack;
import io.lettuce.core.LettuceFutures;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.api.async.RedisAsyncCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Step 5 of the demo: while the indexer is held ({@link HoldBack}), bursts of writes (a mirror push: every 40th
 * package is dropped, every other one is rebuilt, a binNMU version +b1, +b2 ..., round after round) until the
 * backlog of every shard no longer holds what the held indexer reads next, so it gets FEEDRESYNC when released.
 * The other consumers keep up between bursts (the caller's {@code pace}), so only the indexer falls out of its
 * backlog. Not thread-safe.
 */
final class ResyncBurst {
    /** The most bursts before the demo gives up (the backlog would have to be huge). */
    static final int MAX_ROUNDS = 500;

    private final RedisAsyncCommands<String, String> redis;
    private final Writes writes;
    int rounds;
    long commands;
    int deleted;

    ResyncBurst(RedisAsyncCommands<String, String> redis, Writes writes) {
        this.redis = redis;
        this.writes = writes;
    }

    /**
     * Bursts until the held consumer's next reads are evicted on every shard.
     *
     * @param hold   holds the indexer; on when called
     * @param pace   runs after each burst: waits for the consumers that are not held
     * @param status reports progress (rounds, commands)
     * @throws IllegalStateException when {@link #MAX_ROUNDS} bursts did not overflow the backlog
     */
    void run(List<DebianPackage> live, HoldBack hold, Runnable pace, Runnable status) throws Exception {
        while (!hold.evicted()) {
            if (rounds >= MAX_ROUNDS) {
                throw new IllegalStateException(MAX_ROUNDS + " bursts did not overflow the backlog");
            }
            burst(live, ++rounds);
            pace.run();
            status.run();
        }
    }

    private void burst(List<DebianPackage> live, int round) {
        List<RedisFuture<?>> pending = new ArrayList<>();
        if (round == 1) {
            // packages dropped by the mirror: their DEL frames will be evicted, the rebuild's sweep removes them
            for (int i = live.size() - 1; i >= 0; i -= 40) {
                DebianPackage p = live.remove(i);
                pending.add(redis.del(p.key()));
                writes.wrote(p.key());
                commands++;
                deleted++;
            }
        }
        for (DebianPackage p : live) {
            pending.add(redis.hset(p.key(), "version", p.version() + "+b" + round));
            writes.wrote(p.key());
            commands++;
            if (pending.size() == 512) {
                await(pending);
            }
        }
        await(pending);
    }

    private static void await(List<RedisFuture<?>> futures) {
        if (!LettuceFutures.awaitAll(Duration.ofSeconds(60), futures.toArray(new RedisFuture<?>[0]))) {
            throw new IllegalStateException("kevy did not answer a burst within 60 s");
        }
        futures.clear();
    }
}
