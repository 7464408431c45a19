package io.kevy.examples.search;

import io.lettuce.core.LettuceFutures;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes packages into kevy as {@code HSET pkg:<name> name .. version .. section .. maintainer .. description ..},
 * pipelined over one lettuce connection in chunks. Stateless and thread-safe.
 */
public final class PackageLoader {
    /** Commands in flight at once. */
    public static final int CHUNK = 256;

    private PackageLoader() {
    }

    /**
     * Writes {@code packages}, waiting for every reply.
     *
     * @return the number of packages written
     * @throws IllegalStateException when a write fails or does not answer within 60 s
     */
    public static int load(StatefulRedisConnection<String, String> connection, List<DebianPackage> packages) {
        RedisAsyncCommands<String, String> async = connection.async();
        List<RedisFuture<?>> pending = new ArrayList<>(CHUNK);
        for (DebianPackage p : packages) {
            pending.add(async.hset(p.key(), p.fields()));
            if (pending.size() == CHUNK) {
                await(pending);
            }
        }
        await(pending);
        return packages.size();
    }

    /** Waits for {@code futures} and clears the list. */
    static void await(List<RedisFuture<?>> futures) {
        if (!LettuceFutures.awaitAll(Duration.ofSeconds(60), futures.toArray(new RedisFuture<?>[0]))) {
            throw new IllegalStateException("kevy did not answer " + futures.size() + " writes within 60 s");
        }
        futures.clear();
    }
}
