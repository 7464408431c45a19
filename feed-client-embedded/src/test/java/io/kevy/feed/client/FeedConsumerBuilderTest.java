package io.kevy.feed.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kevy.embedded.Config;
import io.kevy.embedded.Store;
import io.lettuce.core.codec.StringCodec;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The consumer builder: each setting once and checked, defaults, required settings, round trip. */
class FeedConsumerBuilderTest {
    private final Store store = Store.open(Config.defaults().withFeed(0));
    private final FeedSource source = EmbeddedFeedSource.of(store);

    @AfterEach
    void close() {
        source.close();
        store.close();
    }

    private FeedConsumer.Builder<String, String> minimal() {
        return FeedConsumer.builder(StringCodec.UTF8).source(source).name("b").handler(batch -> { });
    }

    @Test
    void defaultsAreTheDocumentedConstants() {
        ConsumerSettings<String, String> s = minimal().build().settings();
        assertThat(s.startFrom()).isEqualTo(FeedConsumer.DEFAULT_START_FROM);
        assertThat(s.batchSize()).isEqualTo(FeedConsumer.DEFAULT_BATCH_SIZE);
        assertThat(s.block()).isEqualTo(FeedConsumer.DEFAULT_BLOCK);
        assertThat(s.pollMin()).isEqualTo(FeedConsumer.DEFAULT_POLL_MIN);
        assertThat(s.pollMax()).isEqualTo(FeedConsumer.DEFAULT_POLL_MAX);
        assertThat(s.exactPrefixFilter()).isEqualTo(FeedConsumer.DEFAULT_EXACT_PREFIX_FILTER);
        assertThat(s.durableOnly()).isEqualTo(FeedConsumer.DEFAULT_DURABLE_ONLY).isFalse();
        assertThat(s.handlerRetries()).isEqualTo(FeedConsumer.DEFAULT_HANDLER_RETRIES);
        assertThat(s.retryInitial()).isEqualTo(FeedConsumer.DEFAULT_RETRY_INITIAL);
        assertThat(s.retryMax()).isEqualTo(FeedConsumer.DEFAULT_RETRY_MAX);
        assertThat(s.maxConnectionAttempts()).isEqualTo(FeedConsumer.DEFAULT_MAX_CONNECTION_ATTEMPTS);
        assertThat(s.maxFutileRebuilds()).isEqualTo(FeedConsumer.DEFAULT_MAX_FUTILE_REBUILDS);
        assertThat(s.rebuildGather()).isEqualTo(FeedConsumer.DEFAULT_REBUILD_GATHER);
        assertThat(s.deliveryTimeout()).isEqualTo(FeedConsumer.DEFAULT_DELIVERY_TIMEOUT);
        assertThat(s.rebuild()).isInstanceOf(ScanRebuild.class);
        assertThat(s.prefixes()).isEmpty();
        assertThat(s.deadLetter()).isNull();
    }

    @Test
    void toBuilderBuildIsEqual() {
        FeedConsumer<String, String> c = minimal().prefixes("user:", "a*b").startFrom(StartFrom.REBUILD)
                .batchSize(100).block(Duration.ZERO).pollInterval(Duration.ofMillis(2), Duration.ofMillis(50))
                .exactPrefixFilter(false).durableOnly(true).handlerRetries(1)
                .retryBackoff(Duration.ofMillis(5), Duration.ofSeconds(1)).maxConnectionAttempts(3)
                .deadLetter((b, e) -> { }).maxFutileRebuilds(4).rebuildGather(Duration.ZERO)
                .deliveryTimeout(Duration.ofSeconds(9)).clock(Clock.systemUTC())
                .meterRegistry(new SimpleMeterRegistry()).listener(new ConsumerListener() { })
                .cursorStore(CursorStore.inMemory()).onRebuild(ctx -> { }).build();
        assertThat(c.toBuilder().build().settings()).isEqualTo(c.settings());
        assertThat(minimal().build().toBuilder().build().settings().rebuild()).isNotNull();
    }

    @Test
    void eachSettingOnceAndChecked() {
        assertThatThrownBy(() -> minimal().name("again")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("name was already set");
        assertThatThrownBy(() -> minimal().source(source)).isInstanceOf(IllegalStateException.class);
        FeedConsumer.Builder<String, String> b = FeedConsumer.builder(StringCodec.UTF8);
        assertThatThrownBy(() -> b.batchSize(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.batchSize(4097)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.name("no spaces")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.block(Duration.ofMinutes(2))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.pollInterval(Duration.ofMillis(10), Duration.ofMillis(5)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.handlerRetries(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.maxFutileRebuilds(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.source(null)).isInstanceOf(NullPointerException.class);
        b.batchSize(10);
        assertThatThrownBy(() -> b.batchSize(20)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void buildRejectsMissingOrConflictingSettings() {
        assertThatThrownBy(() -> FeedConsumer.builder(StringCodec.UTF8).name("x").handler(b -> { }).build())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("source");
        assertThatThrownBy(() -> FeedConsumer.builder(StringCodec.UTF8).source(source).handler(b -> { }).build())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("name");
        assertThatThrownBy(() -> FeedConsumer.builder(StringCodec.UTF8).source(source).name("x").build())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("exactly one");
        assertThatThrownBy(() -> minimal().sink(Sink.of(b -> { })).build())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("exactly one");
    }

    @Test
    void lifecycleMovesForwardOnly() throws Exception {
        FeedConsumer<String, String> c = minimal().build();
        assertThat(c.state()).isEqualTo(FeedConsumer.State.NEW);
        c.start().toCompletableFuture().get();
        assertThat(c.state()).isEqualTo(FeedConsumer.State.RUNNING);
        assertThatThrownBy(c::start).isInstanceOf(IllegalStateException.class);
        c.close();
        assertThat(c.state()).isEqualTo(FeedConsumer.State.CLOSED);
        c.close();
        assertThat(c.health().shards()).extracting(ShardHealth::state).containsOnly(ShardState.STOPPED);
    }
}
