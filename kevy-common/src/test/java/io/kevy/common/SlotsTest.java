package io.kevy.common;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Random;
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

    /** The slicing-by-8 CRC against the textbook bit-by-bit one, at every length and offset up to 40 bytes. */
    @Test
    void crc16EqualsTheBitwiseDefinitionOnRandomInput() {
        long seed = System.nanoTime();
        System.out.println("SlotsTest seed=" + seed);
        Random random = new Random(seed);
        for (int round = 0; round < 2_000; round++) {
            byte[] data = new byte[random.nextInt(48)];
            random.nextBytes(data);
            int off = data.length == 0 ? 0 : random.nextInt(Math.min(8, data.length + 1));
            int len = random.nextInt(data.length - off + 1);
            assertThat(Slots.crc16(data, off, len)).as("seed %d round %d", seed, round)
                    .isEqualTo(bitwiseCrc16(data, off, len));
        }
        assertThat(Slots.slot(b("a-key-longer-than-sixteen-bytes:{tag-over-eight}:x")))
                .isEqualTo(bitwiseCrc16(b("tag-over-eight"), 0, 14) & 16383);
    }

    private static int bitwiseCrc16(byte[] b, int off, int len) {
        int crc = 0;
        for (int i = off; i < off + len; i++) {
            crc ^= (b[i] & 0xff) << 8;
            for (int j = 0; j < 8; j++) {
                crc = (crc & 0x8000) != 0 ? (crc << 1) ^ 0x1021 : crc << 1;
            }
            crc &= 0xffff;
        }
        return crc;
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
