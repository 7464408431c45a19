package io.kevy.feed.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.feed.client.support.Servers;
import io.kevy.testing.RawClient;
import io.kevy.testing.TestServer;
import io.lettuce.core.codec.StringCodec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * The start policy for volatile state (issue 31): an in-memory map fed by a consumer with a durable cursor store
 * resumes from the stored cursor with an empty map (the drift the issue saw); declared
 * {@code volatileState(true)} the consumer ignores the stored cursor and rebuilds, so the map is complete.
 */
class FeedConsumerVolatileStateIT {
    private static FeedConsumer<String, String> consumer(FeedSource source, Path cursors, Map<String, String> map,
            boolean volatileState) {
        FeedConsumer.Builder<String, String> b = FeedConsumer.builder(StringCodec.UTF8).source(source).name("users")
                .prefixes("user:").cursorStore(CursorStore.file(cursors)).handler(batch -> {
                    for (Change<String, String> c : batch) {
                        if (c.op() == Op.SNAPSHOT || c.op() == Op.SET) {
                            map.put(c.key(), c.value());
                        } else if (c.op() == Op.VANISHED || c.op() == Op.DEL) {
                            c.keys().forEach(map::remove);
                        }
                    }
                });
        if (volatileState) {
            b.volatileState(true);
        } else {
            b.startFrom(StartFrom.REBUILD);
        }
        return b.build();
    }

    @Test
    void aVolatileStateIgnoresTheStoredCursorAndRebuilds() throws Exception {
        Path dir = Files.createTempDirectory("kevy-volatile");
        Path cursors = dir.resolve("users.json");
        try (TestServer server = Servers.start(); FeedSource source = FeedSource.connect(server.uri());
             RawClient raw = server.raw()) {
            for (int i = 0; i < 50; i++) {
                raw.call("SET", "user:" + i, "v" + i);
            }
            Map<String, String> first = new ConcurrentHashMap<>();
            FeedConsumer<String, String> c1 = consumer(source, cursors, first, false);
            c1.start().toCompletableFuture().get();
            Servers.awaitCaughtUp(c1, source, Duration.ofSeconds(30));
            assertThat(first).hasSize(50);
            c1.close();
            assertThat(cursors).exists();

            // a restart of a process whose map is in memory: a non-volatile consumer resumes from the file
            Map<String, String> resumed = new ConcurrentHashMap<>();
            FeedConsumer<String, String> c2 = consumer(source, cursors, resumed, false);
            c2.start().toCompletableFuture().get();
            raw.call("SET", "user:new", "x");
            Servers.awaitCaughtUp(c2, source, Duration.ofSeconds(30));
            assertThat(resumed).as("resumed from the stored cursor: the earlier keys are never delivered again")
                    .containsOnlyKeys("user:new");
            c2.close();

            Map<String, String> rebuilt = new ConcurrentHashMap<>();
            FeedConsumer<String, String> c3 = consumer(source, cursors, rebuilt, true);
            assertThat(c3.settings().startFrom()).isEqualTo(StartFrom.REBUILD);
            c3.start().toCompletableFuture().get();
            Servers.awaitCaughtUp(c3, source, Duration.ofSeconds(30));
            assertThat(rebuilt).as("the stored cursor was ignored: a rebuild filled the map").hasSize(51)
                    .containsEntry("user:7", "v7").containsEntry("user:new", "x");
            c3.close();
        }
    }
}
