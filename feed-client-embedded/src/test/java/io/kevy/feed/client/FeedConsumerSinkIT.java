package io.kevy.feed.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.embedded.Config;
import io.kevy.embedded.Store;
import io.kevy.feed.client.support.StoreMirror;
import io.lettuce.core.codec.StringCodec;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The Sink SPI and the consumer's policies over an embedded store: an asynchronous sink's completion gates the
 * cursor; rebuild begin/snapshot/end order; start from REBUILD and {@code consumer.rebuild()}; a custom rebuild
 * gets the carried cursors; handler retries, then stop (cursor kept) or dead letter (cursor moves on).
 */
class FeedConsumerSinkIT {
    private final Store store = Store.open(Config.defaults().withFeed(0));
    private final FeedSource source = EmbeddedFeedSource.of(store);

    @AfterEach
    void close() {
        source.close();
        store.close();
    }

    /** Records the calls; completes each delivery only when the test says so. */
    static final class RecordingSink implements Sink<String, String> {
        final List<String> calls = new CopyOnWriteArrayList<>();
        final List<CompletableFuture<Void>> pending = new CopyOnWriteArrayList<>();
        volatile boolean autoComplete = true;

        @Override
        public CompletionStage<Void> deliver(Batch<String, String> batch) {
            calls.add(batch.kind() + ":" + batch.size());
            CompletableFuture<Void> f = new CompletableFuture<>();
            if (autoComplete) {
                f.complete(null);
            } else {
                pending.add(f);
            }
            return f;
        }

        @Override
        public CompletionStage<Void> beginRebuild(RebuildScope scope) {
            calls.add("begin:" + scope.reason());
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public CompletionStage<Void> endRebuild(RebuildScope scope, RebuildResult result) {
            calls.add("end:" + result.keys());
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public void close() {
            calls.add("close");
        }
    }

    @Test
    void theCursorMovesOnlyWhenTheSinkCompletes() throws Exception {
        RecordingSink sink = new RecordingSink();
        CursorStore cursors = CursorStore.inMemory();
        FeedConsumer<String, String> c = FeedConsumer.builder(StringCodec.UTF8).source(source).name("async")
                .sink(sink).cursorStore(cursors).build();
        c.start().toCompletableFuture().get();
        long start = cursors.load("async").orElseThrow().cursor(0).offset();
        sink.autoComplete = false;
        store.set("k", "v");
        Awaitility.await().until(() -> !sink.pending.isEmpty());
        Thread.sleep(100);
        assertThat(cursors.load("async").orElseThrow().cursor(0).offset()).isEqualTo(start);
        sink.pending.get(0).complete(null);
        Awaitility.await().until(() -> cursors.load("async").orElseThrow().cursor(0).offset() == start + 1);
        sink.autoComplete = true;
        c.close();
        assertThat(sink.calls).endsWith("close");
    }

    @Test
    void rebuildsCallBeginSnapshotEndAndResumeAtTheCarriedTail() throws Exception {
        store.set("a", "1");
        store.hset("h", "f", "v");
        RecordingSink sink = new RecordingSink();
        FeedConsumer<String, String> c = FeedConsumer.builder(StringCodec.UTF8).source(source).name("rb")
                .sink(sink).startFrom(StartFrom.REBUILD).build();
        c.start().toCompletableFuture().get();
        assertThat(sink.calls).containsExactly("begin:START", "SNAPSHOT:2", "end:2");
        c.rebuild().toCompletableFuture().get(10, java.util.concurrent.TimeUnit.SECONDS);
        assertThat(sink.calls).containsSubsequence("begin:REQUESTED", "SNAPSHOT:2", "end:2");
        store.set("b", "2");
        Awaitility.await().until(() -> sink.calls.contains("CHANGES:1"));
        c.close();
    }

    @Test
    void aCustomRebuildGetsTheCarriedCursors() throws Exception {
        List<RebuildScope> scopes = new CopyOnWriteArrayList<>();
        FeedConsumer<String, String> c = FeedConsumer.builder(StringCodec.UTF8).source(source).name("custom")
                .handler(b -> { }).startFrom(StartFrom.REBUILD).onRebuild(ctx -> scopes.add(ctx.scope())).build();
        store.set("x", "1");
        c.start().toCompletableFuture().get();
        assertThat(scopes).hasSize(1);
        assertThat(scopes.get(0).carried().get(0)).isEqualTo(source.tail(0).toCompletableFuture().get());
        assertThat(c.health().shards().get(0).cursor()).isEqualTo(scopes.get(0).carried().get(0));
        c.close();
    }

    @Test
    void aFailingHandlerIsRetriedThenStopsWithTheCursorKept() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        CursorStore cursors = CursorStore.inMemory();
        FeedConsumer<String, String> c = FeedConsumer.builder(StringCodec.UTF8).source(source).name("stop")
                .cursorStore(cursors).handlerRetries(2).retryBackoff(Duration.ofMillis(1), Duration.ofMillis(5))
                .handler(b -> {
                    calls.incrementAndGet();
                    throw new IllegalStateException("boom");
                }).build();
        c.start().toCompletableFuture().get();
        long start = cursors.load("stop").orElseThrow().cursor(0).offset();
        store.set("k", "v");
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> c.state() == FeedConsumer.State.FAILED);
        assertThat(calls.get()).isEqualTo(3);
        assertThat(c.failure().orElseThrow().getMessage()).contains("rejected").contains("3 time(s)")
                .contains("boom").contains("dead letter");
        assertThat(cursors.load("stop").orElseThrow().cursor(0).offset()).isEqualTo(start);
        c.close();
    }

    @Test
    void aDeadLetterTakesTheBatchAndTheConsumerGoesOn() throws Exception {
        List<String> dead = new CopyOnWriteArrayList<>();
        StoreMirror ok = new StoreMirror();
        FeedConsumer<String, String> c = FeedConsumer.builder(StringCodec.UTF8).source(source).name("dl")
                .handlerRetries(0).deadLetter((b, e) -> dead.add(b.changes().get(0).key() + ":" + e.getMessage()))
                .handler(b -> {
                    if (b.changes().get(0).key().equals("poison")) {
                        throw new SinkException("cannot take it", false);
                    }
                    ok.handle(b);
                }).build();
        c.start().toCompletableFuture().get();
        store.set("poison", "x");
        Awaitility.await().until(() -> !dead.isEmpty());
        store.set("fine", "y");
        Awaitility.await().until(() -> ok.store().exists("fine") == 1);
        assertThat(dead).containsExactly("poison:cannot take it");
        assertThat(c.state()).isEqualTo(FeedConsumer.State.RUNNING);
        c.close();
        ok.close();
    }
}
