package io.kevy.engine.type;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.kevy.engine.struct.MurmurHash64A;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The HyperLogLog representation in-process: the hash against known Redis values, the empty value's bytes,
 * copy-on-write of the stored value, the dense/sparse agreement, and hostile bytes (random sparse bodies) that
 * must never throw or read outside the string. Byte-exactness against Redis is HyperLogLogCommandsIT's.
 */
class HyperLogLogTest {
    private static final long MAX = 3000;

    @Test
    void murmurHash64aAgreesWithRedisRegisterPlacement() {
        // PFADD h a in Redis 7.0 gives "PFDEBUG DECODE h" = "Z:12711 v:2,1 Z:3672" (checked by
        // HyperLogLogCommandsIT against redis-server): register 12711, value 2
        byte[] a = "a".getBytes(StandardCharsets.US_ASCII);
        long h = MurmurHash64A.hash(a, 0, 1, 0xadc83b19);
        assertThat(h & 16383).isEqualTo(12711);
        assertThat(Long.numberOfTrailingZeros((h >>> 14) | (1L << 50)) + 1).isEqualTo(2);
        HyperLogLog hll = HyperLogLog.empty();
        assertThat(hll.add(a, MAX)).isEqualTo(1);
        assertThat(hll.decode()).isEqualTo("Z:12711 v:2,1 Z:3672");
        assertThat(hll.add(a, MAX)).isZero();
    }

    @Test
    void theEmptyValueIsRedisBytes() {
        byte[] b = HyperLogLog.empty().toBytes();
        assertThat(b).hasSize(18);
        assertThat(Arrays.copyOf(b, 5)).isEqualTo(new byte[] {'H', 'Y', 'L', 'L', 1});
        assertThat(b[16]).isEqualTo((byte) 0x7f);
        assertThat(b[17]).isEqualTo((byte) 0xff);
        assertThat(HyperLogLog.of(b).count()).isZero();
        assertThat(HyperLogLog.isValid(b)).isTrue();
    }

    @Test
    void theStoredValueIsNeverChanged() {
        HyperLogLog h = HyperLogLog.empty();
        h.add("x".getBytes(StandardCharsets.US_ASCII), MAX);
        byte[] stored = h.toBytes();
        byte[] copy = stored.clone();
        HyperLogLog edit = HyperLogLog.of(stored);
        for (int i = 0; i < 5000; i++) {
            edit.add(("e" + i).getBytes(StandardCharsets.US_ASCII), MAX);
        }
        edit.invalidateCache();
        edit.cacheCardinality(edit.count());
        assertThat(edit.isDense()).isTrue();
        assertThat(stored).isEqualTo(copy);
        assertThat(edit.toBytes()).hasSize(HyperLogLog.DENSE_SIZE);
        HyperLogLog unchanged = HyperLogLog.of(stored);
        assertThat(unchanged.add("x".getBytes(StandardCharsets.US_ASCII), MAX)).isZero();
        assertThat(unchanged.toBytes()).isSameAs(stored);
    }

    @Test
    void sparseAndDenseAgreeAndEstimatesAreClose() {
        HyperLogLog sparse = HyperLogLog.empty();
        HyperLogLog dense = HyperLogLog.emptyDense();
        for (int i = 1; i <= 20000; i++) {
            byte[] e = ("k" + i).getBytes(StandardCharsets.US_ASCII);
            sparse.add(e, MAX);
            dense.add(e, MAX);
            if (i == 100 || i == 1000 || i == 20000) {
                assertThat(sparse.count()).isEqualTo(dense.count());
                assertThat((double) dense.count()).isCloseTo(i, org.assertj.core.data.Percentage.withPercentage(5));
            }
        }
        byte[] max = new byte[HyperLogLog.REGISTERS];
        assertThat(dense.mergeInto(max)).isTrue();
        assertThat(HyperLogLog.countRegisters(max)).isEqualTo(dense.count());
    }

    @Test
    void isValidRefusesWhatRedisRefuses() {
        assertThat(HyperLogLog.isValid(new byte[0])).isFalse();
        assertThat(HyperLogLog.isValid("HYLL\u0001".getBytes(StandardCharsets.ISO_8859_1))).isFalse();
        byte[] dense = HyperLogLog.emptyDense().toBytes();
        assertThat(HyperLogLog.isValid(dense)).isTrue();
        assertThat(HyperLogLog.isValid(Arrays.copyOf(dense, dense.length - 1))).isFalse();
        dense[4] = 2;
        assertThat(HyperLogLog.isValid(dense)).isFalse();
        dense[4] = 0;
        dense[0] = 'h';
        assertThat(HyperLogLog.isValid(dense)).isFalse();
    }

    /** Random sparse bodies (any bytes): every operation answers (maybe "corrupted") and never throws. */
    @Test
    void hostileSparseBodiesNeverThrow() {
        long seed = new Random().nextLong();
        System.out.println("HyperLogLogTest seed=" + seed);
        Random rnd = new Random(seed);
        for (int round = 0; round < 3000; round++) {
            byte[] v = new byte[16 + rnd.nextInt(rnd.nextBoolean() ? 8 : 400)];
            rnd.nextBytes(v);
            v[0] = 'H';
            v[1] = 'Y';
            v[2] = 'L';
            v[3] = 'L';
            v[4] = 1;
            assertThat(HyperLogLog.isValid(v)).isTrue();
            byte[] original = v.clone();
            assertThatCode(() -> {
                HyperLogLog h = HyperLogLog.of(v);
                h.count();
                h.mergeInto(new byte[HyperLogLog.REGISTERS]);
                h.decode();
                for (int i = 0; i < 20; i++) {
                    h.add(("x" + rnd.nextInt()).getBytes(StandardCharsets.US_ASCII), 1 + rnd.nextInt(4000));
                }
                h.toBytes();
                HyperLogLog.of(v).toDense();
            }).as("seed %d round %d", seed, round).doesNotThrowAnyException();
            assertThat(v).as("the stored value").isEqualTo(original);
        }
    }
}
