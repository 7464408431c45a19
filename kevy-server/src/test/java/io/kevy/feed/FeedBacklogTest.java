package io.kevy.feed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import io.kevy.boot.KevyInstance;
import io.kevy.engine.Engine;
import io.kevy.engine.EngineConfig;
import io.kevy.engine.Shard;
import io.kevy.resp.Verbs;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The backlog of feed contract §6 and the cursor rules of §4 step 4, on an engine without network. */
class FeedBacklogTest {
    private Engine engine;
    private Feed feed;

    private Engine engine(long budget) {
        KevyInstance k = KevyInstance.assemble(EngineConfig.defaults().withShards(1), FeedConfig.enabled(budget));
        engine = k.engine();
        feed = k.feed();
        return engine;
    }

    @AfterEach
    void close() {
        if (engine != null) {
            engine.close();
        }
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static void emit(Engine e, byte[]... frame) {
        Shard s = e.shard(0);
        s.lock().lock();
        try {
            s.emit(frame);
        } finally {
            s.lock().unlock();
        }
    }

    @Test
    void frameSizeIsTheLengthOfItsRespEncoding() {
        assertThat(FeedBacklog.frameSize(0, new byte[][] {b("SET"), b("k"), b("v")})).isEqualTo(35);
        // "*2\r\n:1234\r\n*2\r\n$3\r\nDEL\r\n$10\r\n0123456789\r\n"
        assertThat(FeedBacklog.frameSize(1234, new byte[][] {b("DEL"), b("0123456789")}))
                .isEqualTo("*2\r\n:1234\r\n*2\r\n$3\r\nDEL\r\n$10\r\n0123456789\r\n".length());
        byte[] big = new byte[123_456];
        assertThat(FeedBacklog.frameSize(9_999_999_999L, new byte[][] {b("SET"), b("k"), big}))
                .isEqualTo(("*2\r\n:9999999999\r\n*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$123456\r\n").length() + 123_456 + 2);
    }

    @Test
    void anEmptyRingStartsAtTheFirstOffsetItIsGivenAndThenRefusesGaps() {
        Engine e = engine(1 << 20);
        Shard s = e.shard(0);
        FeedBacklog backlog = feed.backlog(0);
        byte[][] first = {Verbs.SET, b("k"), b("v")};
        byte[][] second = {Verbs.SET, b("k"), b("w")};
        s.lock().lock();
        try {
            backlog.onReplay(s, 41, first); // a boot replay's first frame
            backlog.onReplay(s, 42, second);
            assertThatThrownBy(() -> backlog.onEffect(s, 44, new byte[][] {Verbs.DEL, b("k")}))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("shard 0: frame offset 44 does not follow 42");
        } finally {
            s.lock().unlock();
        }
        FeedBacklog.Stats st = backlog.stats();
        assertThat(st.oldestOffset()).isEqualTo(41);
        assertThat(st.frames()).isEqualTo(2); // the refused frame left nothing behind
        assertThat(st.bytes()).isEqualTo(FeedBacklog.frameSize(41, first) + FeedBacklog.frameSize(42, second));
    }

    @Test
    void evictsOldestFramesToStayWithinTheBudget() {
        Engine e = engine(35 * 3);
        for (int i = 0; i < 10; i++) {
            emit(e, Verbs.SET, b("k"), b("v"));
        }
        FeedBacklog.Stats st = feed.backlog(0).stats();
        assertThat(st.frames()).isEqualTo(3);
        assertThat(st.bytes()).isEqualTo(105);
        assertThat(st.oldestOffset()).isEqualTo(7);
        assertThat(st.nextOffset()).isEqualTo(10);
        assertThat(st.framesEvicted()).isEqualTo(7);
    }

    @Test
    void theNewestFrameIsKeptEvenWhenLargerThanTheBudget() {
        Engine e = engine(100);
        emit(e, Verbs.SET, b("a"), b("1"));
        emit(e, Verbs.SET, b("big"), new byte[500]);
        FeedBacklog.Stats st = feed.backlog(0).stats();
        assertThat(st.frames()).isEqualTo(1);
        assertThat(st.oldestOffset()).isEqualTo(1);
        assertThat(st.bytes()).isGreaterThan(500);
        FeedRead.Result r = feed.open(0, st.generation(), 1, 10, PrefixFilter.ALL).step();
        assertThat(((FeedRead.Batch) r).frames()).hasSize(1);
        emit(e, Verbs.SET, b("a"), b("2"));
        assertThat(feed.backlog(0).stats().oldestOffset()).isEqualTo(2);
    }

    @Test
    void cursorRulesOfContractSection4() {
        Engine e = engine(35 * 4);
        long gen = feed.tail(0).generation();
        for (int i = 0; i < 6; i++) {
            emit(e, Verbs.SET, b("k"), b("v"));
        }
        // frames 2..5 retained, tail 6
        assertThat(feed.open(0, gen + 1, 3, 10, PrefixFilter.ALL).step())
                .isEqualTo(new FeedRead.Resync(gen, 6));
        assertThat(feed.open(0, gen + 1, 99, 10, PrefixFilter.ALL).step())
                .as("a foreign generation wins over an offset ahead").isEqualTo(new FeedRead.Resync(gen, 6));
        assertThat(feed.open(0, gen, 7, 10, PrefixFilter.ALL).step()).isInstanceOf(FeedRead.Ahead.class);
        assertThat(feed.open(0, gen, -1L, 10, PrefixFilter.ALL).step())
                .as("offsets are unsigned").isInstanceOf(FeedRead.Ahead.class);
        FeedRead atTail = feed.open(0, gen, 6, 10, PrefixFilter.ALL);
        assertThat(atTail.step()).as("caught up: nothing deliverable").isNull();
        assertThat(atTail.idle()).isEqualTo(new FeedRead.Batch(gen, 6, List.of()));
        assertThat(feed.open(0, gen, 1, 10, PrefixFilter.ALL).step())
                .as("evicted: the resync carries the tail, not the oldest offset")
                .isEqualTo(new FeedRead.Resync(gen, 6));
        FeedRead.Batch b = (FeedRead.Batch) feed.open(0, gen, 2, 3, PrefixFilter.ALL).step();
        assertThat(b.next()).isEqualTo(5);
        assertThat(b.frames()).extracting(FeedFrame::offset).containsExactly(2L, 3L, 4L);
    }

    @Test
    void filteredFramesAdvanceTheCursorAndCountAgainstTheBudget() {
        Engine e = engine(FeedConfig.DEFAULT_BUFFER);
        long gen = feed.tail(0).generation();
        emit(e, Verbs.SET, b("b:1"), b("v"));
        emit(e, Verbs.SET, b("a:1"), b("v"));
        emit(e, Verbs.SET, b("b:2"), b("v"));
        emit(e, Verbs.SET, b("b:3"), b("v"));
        PrefixFilter a = PrefixFilter.of(List.of(b("a:")));
        FeedRead.Batch first = (FeedRead.Batch) feed.open(0, gen, 0, 1, a).step();
        assertThat(first.frames()).isEmpty();
        assertThat(first.next()).as("COUNT limits frames scanned").isEqualTo(1);
        FeedRead.Batch all = (FeedRead.Batch) feed.open(0, gen, 0, 10, a).step();
        assertThat(all.frames()).extracting(FeedFrame::offset).containsExactly(1L);
        assertThat(all.next()).isEqualTo(4);
        FeedRead tail = feed.open(0, gen, 2, 10, a);
        assertThat(tail.step()).as("only filtered frames up to the tail: idle").isNull();
        assertThat(tail.idle().next()).as("the idle answer keeps the advanced cursor").isEqualTo(4);
    }

    @Test
    void aStreamResetEmptiesTheBacklogAndStartsANewGeneration() {
        Engine e = engine(FeedConfig.DEFAULT_BUFFER);
        long gen = feed.tail(0).generation();
        emit(e, Verbs.SET, b("k"), b("v"));
        e.lockAll();
        try {
            e.flushAllLocked();
        } finally {
            e.unlockAll();
        }
        FeedCursor t = feed.tail(0);
        assertThat(t.generation()).isNotEqualTo(gen).isBetween(1L, (1L << 53) - 1);
        assertThat(t.offset()).isZero();
        FeedBacklog.Stats st = feed.backlog(0).stats();
        assertThat(st.frames()).isZero();
        assertThat(st.bytes()).isZero();
        assertThat(feed.open(0, gen, 1, 10, PrefixFilter.ALL).step()).isEqualTo(new FeedRead.Resync(
                t.generation(), 0));
        emit(e, Verbs.SET, b("k"), b("v2"));
        FeedRead.Batch b = (FeedRead.Batch) feed.open(0, t.generation(), 0, 10, PrefixFilter.ALL).step();
        assertThat(b.frames()).extracting(FeedFrame::offset).containsExactly(0L);
    }

    @Test
    void theRingGrowsAndWrapsAroundWithoutLosingOrder() {
        Engine e = engine(35L * 40);
        long gen = feed.tail(0).generation();
        for (int i = 0; i < 1000; i++) {
            emit(e, Verbs.SET, b("k"), b(Integer.toString(i % 10)));
        }
        FeedBacklog.Stats st = feed.backlog(0).stats();
        FeedRead.Batch b = (FeedRead.Batch) feed.open(0, gen, st.oldestOffset(), 4096, PrefixFilter.ALL).step();
        assertThat(b.frames()).hasSize((int) st.frames());
        for (int i = 0; i < b.frames().size(); i++) {
            FeedFrame f = b.frames().get(i);
            assertThat(f.offset()).isEqualTo(st.oldestOffset() + i);
            assertThat(new String(f.argv()[2], StandardCharsets.UTF_8)).isEqualTo(Long.toString(f.offset() % 10));
        }
    }

    @Test
    void infoSectionReportsEveryShard() {
        Engine e = engine(1000);
        emit(e, Verbs.SET, b("k"), b("v"));
        StringBuilder sb = new StringBuilder();
        e.infoSections().get("feed").accept(sb);
        long gen = feed.tail(0).generation();
        assertThat(sb.toString()).isEqualTo("feed_enabled:1\r\nfeed_buffer_size:1000\r\nfeed_shards:1\r\n"
                + "feed_shard0:generation=" + gen + ",next_offset=1,oldest_offset=0,backlog_frames=1,"
                + "backlog_bytes=35,budget=1000,frames_evicted=0,readers_blocked=0\r\n");
    }

    @Test
    void infoSectionWithTheFeedOff() {
        engine = KevyInstance.assemble(EngineConfig.defaults().withShards(2), FeedConfig.disabled()).engine();
        StringBuilder sb = new StringBuilder();
        engine.infoSections().get("feed").accept(sb);
        assertThat(sb.toString()).isEqualTo("feed_enabled:0\r\nfeed_buffer_size:67108864\r\nfeed_shards:2\r\n");
    }
}
