package io.kevy.engine.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import io.kevy.engine.Engine;
import io.kevy.engine.EngineConfig;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class RuntimeConfigTest {
    @Test
    void parsersWordErrorsAsRedis() {
        assertThat(RuntimeConfig.parseMemory("1kb", 0, Long.MAX_VALUE)).isEqualTo(1024);
        assertThat(RuntimeConfig.parseMemory("1K", 0, Long.MAX_VALUE)).isEqualTo(1000);
        assertThat(RuntimeConfig.parseMemory("2mb", 0, Long.MAX_VALUE)).isEqualTo(2L << 20);
        assertThat(RuntimeConfig.parseMemory("3g", 0, Long.MAX_VALUE)).isEqualTo(3_000_000_000L);
        assertThat(RuntimeConfig.parseMemory("1GB", 0, Long.MAX_VALUE)).isEqualTo(1L << 30);
        assertThat(RuntimeConfig.parseMemory("7b", 0, Long.MAX_VALUE)).isEqualTo(7);
        assertThat(RuntimeConfig.parseMemory("", 0, Long.MAX_VALUE)).isZero();
        for (String bad : List.of("-1", "1.5k", "abc", "1 kb", "1tb", "+1")) {
            assertThatThrownBy(() -> RuntimeConfig.parseMemory(bad, 0, Long.MAX_VALUE)).as(bad)
                    .hasMessage("argument must be a memory value");
        }
        // Redis's memtoull saturates the digits and wraps the unit: past 2^63-1 the range check fails
        for (String big : List.of("99999999999999999999", "9223372036854775808", "9223372036854775807kb")) {
            assertThatThrownBy(() -> RuntimeConfig.parseMemory(big, 0, Long.MAX_VALUE)).as(big)
                    .hasMessage("argument must be between 0 and 9223372036854775807 inclusive");
        }
        assertThat(RuntimeConfig.parseMemory("36028797018963968kb", 0, Long.MAX_VALUE)).isZero(); // 2^65 mod 2^64
        assertThat(RuntimeConfig.parseUnsignedMemory("99999999999999999999")).isEqualTo(-1L);
        assertThatThrownBy(() -> RuntimeConfig.parseMemory("10", 1024, 2048))
                .hasMessage("argument must be between 1024 and 2048 inclusive");
        assertThat(RuntimeConfig.parseInteger("-5", -10, 10)).isEqualTo(-5);
        assertThatThrownBy(() -> RuntimeConfig.parseInteger("+5", -10, 10))
                .hasMessage("argument couldn't be parsed into an integer");
        assertThatThrownBy(() -> RuntimeConfig.parseInteger("11", -10, 10))
                .hasMessage("argument must be between -10 and 10 inclusive");
        assertThat(RuntimeConfig.parseBool("YES")).isEqualTo("yes");
        assertThatThrownBy(() -> RuntimeConfig.parseBool("1")).hasMessage("argument must be 'yes' or 'no'");
        assertThat(RuntimeConfig.parseEnum("ALLKEYS-LRU", List.of("noeviction", "allkeys-lru"))).isEqualTo("allkeys-lru");
        assertThatThrownBy(() -> RuntimeConfig.parseEnum("x", List.of("a", "b")))
                .hasMessage("argument(s) must be one of the following: a, b");
    }

    @Test
    void setAllIsAllOrNothingInRedisOrder() {
        RuntimeConfig rc = new RuntimeConfig();
        AtomicLong a = new AtomicLong(1);
        AtomicLong b = new AtomicLong(2);
        rc.integer("a", 0, 100, a::get, a::set, "alias-a");
        rc.integer("b", 0, 100, b::get, b::set);
        rc.readOnly("fixed", () -> "x");
        rc.protectedParam("guarded", () -> "y");
        assertThat(rc.setAll(List.of("a", "5", "b", "500")).message())
                .isEqualTo("ERR CONFIG SET failed (possibly related to argument 'b') - argument must be between 0 and "
                        + "100 inclusive");
        assertThat(a.get()).isEqualTo(1);
        assertThat(rc.setAll(List.of("a", "5", "nosuch", "1", "fixed", "z")).message())
                .isEqualTo("ERR Unknown option or number of arguments for CONFIG SET - 'nosuch'");
        assertThat(rc.setAll(List.of("fixed", "z", "nosuch", "1")).message())
                .isEqualTo("ERR CONFIG SET failed (possibly related to argument 'fixed') - can't set immutable config");
        assertThat(rc.setAll(List.of("guarded", "z")).message()).endsWith("can't set protected config");
        assertThat(rc.setAll(List.of("a", "1", "A", "2")).message()).isEqualTo(
                "ERR CONFIG SET failed (possibly related to argument 'A') - duplicate parameter");
        assertThat(rc.setAll(List.of("a", "7", "alias-a", "8", "B", "9"))).isNull();
        assertThat(a.get()).isEqualTo(8);
        assertThat(b.get()).isEqualTo(9);
        assertThat(rc.get("ALIAS-A")).isEqualTo("8");
        assertThat(rc.names()).containsExactly("a", "alias-a", "b", "fixed", "guarded");
        assertThat(rc.lookup("fixed").mutable()).isFalse();
    }

    @Test
    void rememberedValuesAreValidatedAndEchoed() {
        RuntimeConfig rc = new RuntimeConfig();
        rc.rememberBool("flag", false);
        rc.rememberInteger("n", 5, 1, 10, "old-n");
        rc.rememberMemory("m", 64, 0, Long.MAX_VALUE);
        rc.rememberEnum("e", "a", List.of("a", "b"));
        rc.remember("s", "");
        assertThat(rc.setAll(List.of("flag", "YES", "old-n", "7", "m", "1kb", "e", "B", "s", "any thing"))).isNull();
        assertThat(rc.get("flag")).isEqualTo("yes");
        assertThat(rc.get("n")).isEqualTo("7");
        assertThat(rc.get("m")).isEqualTo("1024");
        assertThat(rc.get("e")).isEqualTo("b");
        assertThat(rc.get("s")).isEqualTo("any thing");
        assertThat(rc.setAll(List.of("n", "0"))).isNotNull();
        assertThat(rc.get("n")).isEqualTo("7");
    }

    @Test
    void catalogSpecialValuesFollowRedis() {
        assertThat(RedisConfigCatalog.normalizeSave("100 10 50 5")).isEqualTo("100 10 50 5");
        assertThat(RedisConfigCatalog.normalizeSave("+100 010")).isEqualTo("100 10");
        assertThat(RedisConfigCatalog.normalizeSave("")).isEmpty();
        for (String bad : List.of("100", "0 5", "100 x", " 100  +5 ", "100 -1")) {
            assertThatThrownBy(() -> RedisConfigCatalog.normalizeSave(bad)).as(bad)
                    .hasMessage("Invalid save parameters");
        }
        assertThat(RedisConfigCatalog.normalizeKeyspaceEvents("KEA")).isEqualTo("AKE");
        assertThat(RedisConfigCatalog.normalizeKeyspaceEvents("Kg$xmn")).isEqualTo("g$xnKm");
        assertThat(RedisConfigCatalog.normalizeKeyspaceEvents("Ad")).isEqualTo("A");
        assertThat(RedisConfigCatalog.normalizeKeyspaceEvents("")).isEmpty();
        assertThatThrownBy(() -> RedisConfigCatalog.normalizeKeyspaceEvents("Q"))
                .hasMessage("Invalid event class character. Use 'Ag$lshzxeKEtmdn'.");
        String limits = RedisConfigCatalog.mergeOutputBufferLimits(RedisConfigCatalog.DEFAULT_OUTPUT_BUFFER_LIMITS,
                "replica 1mb 2mb 3 normal 10 20 30");
        assertThat(limits).isEqualTo("normal 10 20 30 slave 1048576 2097152 3 pubsub 33554432 8388608 60");
        assertThat(RedisConfigCatalog.normalHardLimit(limits)).isEqualTo(10);
        assertThat(RedisConfigCatalog.mergeOutputBufferLimits(limits, "")).isEqualTo(limits);
        assertThatThrownBy(() -> RedisConfigCatalog.mergeOutputBufferLimits(limits, "master 1 2 3"))
                .hasMessage("Invalid client class specified in buffer limit configuration.");
        assertThatThrownBy(() -> RedisConfigCatalog.mergeOutputBufferLimits(limits, "normal 1 2"))
                .hasMessage("Wrong number of arguments in buffer limit configuration.");
        assertThat(RedisConfigCatalog.checkOomScoreAdjValues("0 -200 2000")).isEqualTo("0 -200 2000");
        assertThatThrownBy(() -> RedisConfigCatalog.checkOomScoreAdjValues("1 2 3000"))
                .hasMessage("Invalid oom-score-adj-values, elements must be between -2000 and 2000.");
        assertThat(RedisConfigCatalog.checkPercentiles("50 99 99.9")).isEqualTo("50 99 99.9");
        assertThat(RedisConfigCatalog.checkPercentiles("50.5 99.99")).isEqualTo("50.5 99.99");
        assertThat(RedisConfigCatalog.checkMemoryOrPercent("10%")).isEqualTo("10%");
        assertThat(RedisConfigCatalog.checkMemoryOrPercent("1kb")).isEqualTo("1024");
        assertThatThrownBy(() -> RedisConfigCatalog.checkMemoryOrPercent("200%"))
                .hasMessage("percentage argument must be less or equal to 100");
    }

    @Test
    void engineRegistersEveryRedisNameAndItsOwnRealOnes() {
        try (Engine e = new Engine(EngineConfig.defaults().withShards(2))) {
            RuntimeConfig rc = e.runtimeConfig();
            assertThat(rc.names()).hasSizeGreaterThan(190).contains("hash-max-ziplist-entries", "slaveof", "hz");
            assertThat(rc.setAll(List.of("hz", "0"))).isNull();
            assertThat(e.hz()).isEqualTo(1);
            assertThat(rc.setAll(List.of("hz", "100000"))).isNull();
            assertThat(e.hz()).isEqualTo(500);
            assertThat(rc.setAll(List.of("set-max-intset-entries", "3", "zset-max-ziplist-value", "10"))).isNull();
            assertThat(e.encodings().setMaxIntsetEntries()).isEqualTo(3);
            assertThat(e.encodings().zsetMaxListpackValue()).isEqualTo(10);
            assertThat(rc.setAll(List.of("requirepass", "pw"))).isNull();
            assertThat(e.requirePass()).isEqualTo("pw");
            assertThat(rc.get("databases")).isEqualTo("1");
        }
    }
}
