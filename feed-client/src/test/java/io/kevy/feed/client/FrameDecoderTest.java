package io.kevy.feed.client;

import static io.kevy.feed.client.TestChanges.frame;
import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.KeyValue;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.codec.StringCodec;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * Decoding frames into typed changes: our effect frames (feed contract §7) and upstream kevy's verbatim ones
 * (any casing, relative times, counters, scripts, failed commands), which must never throw.
 */
class FrameDecoderTest {
    private static Change<String, String> c(String... argv) {
        return Change.of(StringCodec.UTF8, 1, 42, frame(7, argv), 0);
    }

    @Test
    void oursSetWithAbsoluteTimeOrKeepTtl() {
        Change<String, String> set = c("SET", "k", "v", "PXAT", "1800000000000");
        assertThat(set.op()).isEqualTo(Op.SET);
        assertThat(set.key()).isEqualTo("k");
        assertThat(set.value()).isEqualTo("v");
        assertThat(set.expireAtMillis()).hasValue(1_800_000_000_000L);
        assertThat(set.ttlMillis()).isEmpty();
        assertThat(set.exact()).isTrue();
        assertThat(set.id()).isEqualTo("1:42:7");
        Change<String, String> counter = c("SET", "n", "11", "KEEPTTL");
        assertThat(counter.keepTtl()).isTrue();
        assertThat(counter.value()).isEqualTo("11");
        assertThat(c("SET", "k", "v").expireAtMillis()).isEmpty();
    }

    @Test
    void oursCollectionsAndMultiKeyFrames() {
        assertThat(c("HSET", "h", "f", "v", "g", "w").fields())
                .containsExactly(KeyValue.just("f", "v"), KeyValue.just("g", "w"));
        assertThat(c("HDEL", "h", "f").fieldNames()).containsExactly("f");
        assertThat(c("RPUSH", "l", "a", "b").elements()).containsExactly("a", "b");
        assertThat(c("LPOP", "l", "3").count()).isEqualTo(OptionalLong.of(3));
        assertThat(c("LSET", "l", "-1", "x").count()).isEqualTo(OptionalLong.of(-1));
        assertThat(c("LREM", "l", "-2", "x").value()).isEqualTo("x");
        assertThat(c("SREM", "s", "a").elements()).containsExactly("a");
        assertThat(c("ZADD", "z", "inf", "a", "1.5", "b").scored())
                .containsExactly(ScoredValue.just(Double.POSITIVE_INFINITY, "a"), ScoredValue.just(1.5, "b"));
        assertThat(c("ZREM", "z", "a").elements()).containsExactly("a");
        Change<String, String> mset = c("MSET", "a", "1", "b", "2");
        assertThat(mset.op()).isEqualTo(Op.MSET);
        assertThat(mset.keys()).containsExactly("a", "b");
        assertThat(mset.fields()).containsExactly(KeyValue.just("a", "1"), KeyValue.just("b", "2"));
        assertThat(c("DEL", "a", "b").keys()).containsExactly("a", "b");
        assertThat(c("RENAME", "a", "b").keys()).containsExactly("a", "b");
        assertThat(c("PEXPIREAT", "k", "5").expireAtMillis()).hasValue(5);
        assertThat(c("PERSIST", "k").op()).isEqualTo(Op.PERSIST);
    }

    @Test
    void upstreamVerbatimShapesDecodeInexactly() {
        Change<String, String> incr = c("incr", "n");
        assertThat(incr.op()).isEqualTo(Op.INCR);
        assertThat(incr.key()).isEqualTo("n");
        assertThat(incr.exact()).isFalse();
        assertThat(incr.verb()).isEqualTo("INCR");
        Change<String, String> expire = c("expire", "k", "10");
        assertThat(expire.op()).isEqualTo(Op.EXPIRE);
        assertThat(expire.ttlMillis()).hasValue(10_000);
        assertThat(expire.exact()).isFalse();
        Change<String, String> setex = c("SETEX", "k", "10", "v");
        assertThat(setex.op()).isEqualTo(Op.SET);
        assertThat(setex.value()).isEqualTo("v");
        assertThat(setex.ttlMillis()).hasValue(10_000);
        Change<String, String> setEx = c("set", "k", "v", "ex", "5");
        assertThat(setEx.ttlMillis()).hasValue(5_000);
        assertThat(setEx.exact()).isFalse();
        Change<String, String> eval = c("EVAL", "redis.call('set',KEYS[1],ARGV[1])", "2", "a", "b", "x");
        assertThat(eval.op()).isEqualTo(Op.EVAL);
        assertThat(eval.keys()).containsExactly("a", "b");
        assertThat(c("EVAL", "return 1", "0").keys()).isEmpty();
        assertThat(c("LMOVE", "a", "b", "LEFT", "RIGHT").keys()).containsExactly("a", "b");
        assertThat(c("SPOP", "s").op()).isEqualTo(Op.SREM);
        assertThat(c("ZADD", "z", "INCR", "1", "a").exact()).isFalse();
        assertThat(c("SINTERSTORE", "d", "a", "b").keys()).containsExactly("d");
        assertThat(c("BITOP", "AND", "d", "a").keys()).containsExactly("d");
        assertThat(c("FLUSHALL").op()).isEqualTo(Op.FLUSH);
        assertThat(c("FLUSHALL").key()).isNull();
        assertThat(c("XADD", "s", "*", "f", "v").op()).isEqualTo(Op.XADD); // upstream's XADD *: no id, inexact
        assertThat(c("XADD", "s", "*", "f", "v").exact()).isFalse();
        assertThat(c("XADD", "s", "*", "f", "v").streamIds()).isEmpty();
        assertThat(c("XADD", "s", "1-1", "f", "v").exact()).isTrue();
        assertThat(c("XREADGROUP", "GROUP", "g", "c", "STREAMS", "s", ">").keys()).containsExactly("s");
        assertThat(c("XTRIM", "s", "MAXLEN", "~", "5").exact()).isFalse();
        assertThat(c("XTRIM", "s", "MAXLEN", "=", "5").count()).hasValue(5);
        assertThat(c("XGROUP", "CREATE", "s", "g", "$", "MKSTREAM").key()).isEqualTo("s");
        assertThat(c("XADD", "s", "*", "f", "v").key()).isEqualTo("s");
        assertThat(c("BLPOP", "a", "b", "0").keys()).containsExactly("a", "b");
    }

    @Test
    void malformedUpstreamFramesBecomeOtherAndNeverThrow() {
        for (String[] argv : TestChanges.ALL_SHAPES) {
            Change<String, String> ch = c(argv);
            assertThat(ch.op()).isNotNull();
            assertThat(ch.keys()).isNotNull();
            assertThat(ch.toString()).isNotEmpty();
        }
        assertThat(c("EXPIRE", "k", "notanumber").op()).isEqualTo(Op.OTHER);
        assertThat(c("SET", "k").op()).isEqualTo(Op.OTHER);
        assertThat(c("HSET", "h", "f").op()).isEqualTo(Op.OTHER);
        assertThat(c("ZADD", "z", "nan", "a").op()).isEqualTo(Op.OTHER);
        assertThat(c("PING").keys()).isEmpty();
        assertThat(c("EXPIRE", "k", "notanumber").raw().keysKnown).isFalse();
    }

    @Test
    void bytesViewAndCodecsShareTheContent() {
        Change<String, String> s = c("SET", "k", "v");
        assertThat(s.bytes().value()).isEqualTo(TestChanges.utf8("v"));
        assertThat(s.bytes().decodedWith(StringCodec.UTF8)).isEqualTo(s);
        assertThat(s.argv()).hasSize(3);
    }
}
