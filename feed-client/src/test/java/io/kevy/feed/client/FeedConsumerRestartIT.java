package io.kevy.feed.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.feed.client.support.Dump;
import io.kevy.feed.client.support.Servers;
import io.kevy.feed.client.support.StoreMirror;
import io.kevy.feed.client.support.Workload;
import io.kevy.server.KevyServer;
import io.kevy.server.config.ServerConfig;
import io.kevy.server.config.ServerOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.StringCodec;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The restart tests of issue 6 (feed contract §5): a clean server restart keeps every generation and refills
 * the backlog, so the consumer continues without a rebuild and without a gap; a crash (no clean-shutdown
 * marker) starts new generations, so the consumer rebuilds. Both on the same data dir with AOF on.
 */
class FeedConsumerRestartIT {
    @TempDir
    Path dir;

    private KevyServer start(int port) throws Exception {
        return KevyServer.start(ServerConfig.defaults()
                .with(ServerOptions.PORT, port)
                .with(ServerOptions.SHARDS, 4)
                .with(ServerOptions.IO_THREADS, 2)
                .with(ServerOptions.DIR, dir.toString())
                .with(ServerOptions.AOF, true)
                .with(ServerOptions.SAVE, "")
                .with(ServerOptions.FEED_ENABLED, true));
    }

    private static void writes(KevyServer server, long seed, int n) throws Exception {
        RedisClient client = RedisClient.create("redis://127.0.0.1:" + server.port());
        try {
            new Workload(seed, 50, "").run(4, n, w -> {
                StatefulRedisConnection<String, String> c = client.connect();
                return argv -> {
                    io.lettuce.core.protocol.CommandArgs<String, String> args =
                            new io.lettuce.core.protocol.CommandArgs<>(StringCodec.UTF8);
                    for (int i = 1; i < argv.length; i++) {
                        args.add(argv[i]);
                    }
                    return c.async().dispatch(io.lettuce.core.protocol.CommandType.valueOf(argv[0]),
                            new io.lettuce.core.output.NestedMultiOutput<>(StringCodec.UTF8), args)
                            .toCompletableFuture();
                };
            });
        } finally {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
    }

    private static java.util.Map<String, String> dump(KevyServer server) {
        RedisClient client = RedisClient.create("redis://127.0.0.1:" + server.port());
        try (StatefulRedisConnection<String, String> c = client.connect()) {
            return Dump.dump(Dump.of(c.sync()));
        } finally {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
    }

    private static double count(SimpleMeterRegistry r, String name) {
        return r.find(name).counters().stream().mapToDouble(c -> c.count()).sum();
    }

    @Test
    void aCleanRestartContinuesWithoutRebuildAndWithoutGap() throws Exception {
        run(false);
    }

    @Test
    void aCrashRestartRebuilds() throws Exception {
        run(true);
    }

    private void run(boolean crash) throws Exception {
        KevyServer server = start(0);
        int port = server.port();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (FeedSource source = FeedSource.connect("redis://127.0.0.1:" + port + "?timeout=5s");
             StoreMirror mirror = new StoreMirror()) {
            FeedConsumer<String, String> consumer = FeedConsumer.builder(StringCodec.UTF8).source(source)
                    .name("restart").handler(mirror).meterRegistry(registry)
                    .onRebuild(ScanRebuild.<String, String>sweeping(mirror::keys))
                    .retryBackoff(Duration.ofMillis(20), Duration.ofMillis(200)).build();
            consumer.start().toCompletableFuture().get();
            writes(server, 1, 5_000);
            Cursor before = source.tail(0).toCompletableFuture().get();
            if (crash) {
                server.persistence().aof().syncNow();
                server.abort();
            } else {
                server.close();
            }
            server = start(port);
            if (crash) {
                // the rebuild runs first: list pushes are not idempotent, so writes during a rebuild could be
                // applied twice (docs/consumer.md, "Rebuilds")
                Servers.awaitCaughtUp(consumer, source, Duration.ofSeconds(60));
                Servers.assertSameState(dump(server), mirror.dump());
            }
            writes(server, 2, 5_000);
            Servers.awaitCaughtUp(consumer, source, Duration.ofSeconds(60));
            Servers.assertSameState(dump(server), mirror.dump());
            Cursor after = source.tail(0).toCompletableFuture().get();
            if (crash) {
                assertThat(after.generation()).isNotEqualTo(before.generation());
                assertThat(count(registry, "kevy.feed.consumer.resyncs")).isGreaterThanOrEqualTo(1);
                assertThat(mirror.snapshots.get()).isPositive();
            } else {
                assertThat(after.generation()).isEqualTo(before.generation());
                assertThat(count(registry, "kevy.feed.consumer.resyncs")).isZero();
                assertThat(mirror.snapshots.get()).as("no rebuild").isZero();
                assertThat(count(registry, "kevy.feed.consumer.retries")).as("it reconnected").isPositive();
            }
            consumer.close();
        } finally {
            server.close();
        }
    }
}
