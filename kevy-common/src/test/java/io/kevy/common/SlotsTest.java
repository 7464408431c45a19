package io.kevy.common;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Reference values from the Redis Cluster specification and CLUSTER KEYSLOT. */
class SlotsTest {
    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void crc16XmodemReferenceVector() {
        assertThat(Slots.crc16(b("123456789"), 0, 9)).isEqualTo(0x31C3);
    }

    @Test
    void slotsMatchRedisCluster() {
        assertThat(Slots.slot(b("foo"))).isEqualTo(12182);
        assertThat(Slots.slot(b("bar"))).isEqualTo(5061);
        assertThat(Slots.slot(b("{user1000}.following"))).isEqualTo(Slots.slot(b("user1000")));
        assertThat(Slots.slot(b("{user1000}.followers"))).isEqualTo(Slots.slot(b("{user1000}.following")));
        // empty tag: the whole key is hashed; only the first '{' counts
        assertThat(Slots.slot(b("foo{}{bar}"))).isEqualTo(Slots.crc16(b("foo{}{bar}"), 0, 10) & 16383);
        assertThat(Slots.slot(b("foo{{bar}}zap"))).isEqualTo(Slots.slot(b("{bar")));
    }

    @Test
    void shardIsSlotModN() {
        assertThat(Slots.shard(b("foo"), 4)).isEqualTo(12182 % 4);
        assertThat(Slots.shard(b("foo"), 1)).isZero();
    }
}
