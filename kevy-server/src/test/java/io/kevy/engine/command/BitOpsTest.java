package io.kevy.engine.command;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link BitOps} against straightforward models: bit-by-bit counting and searching, and {@link BigInteger}
 * arithmetic for bitfield reads, writes and INCRBY overflow. Seeded; the seed is printed ({@code -Dseed=<n>}).
 */
class BitOpsTest {
    private static final long SEED = Long.getLong("seed", System.nanoTime());

    static {
        System.out.println("BitOpsTest seed=" + SEED);
    }

    private static byte[] randomBytes(Random rnd, int n) {
        byte[] b = new byte[n];
        int style = rnd.nextInt(4);
        for (int i = 0; i < n; i++) {
            b[i] = switch (style) {
                case 0 -> (byte) rnd.nextInt(256);
                case 1 -> rnd.nextInt(40) == 0 ? (byte) rnd.nextInt(256) : 0;
                case 2 -> rnd.nextInt(40) == 0 ? (byte) rnd.nextInt(256) : (byte) 0xff;
                default -> (byte) (rnd.nextBoolean() ? 0 : 0xff);
            };
        }
        return b;
    }

    private static int naiveBit(byte[] p, long offset) {
        return offset / 8 >= p.length ? 0 : (p[(int) (offset / 8)] >> (7 - (int) (offset % 8))) & 1;
    }

    @Test
    void popcountAndBitposMatchABitByBitModel() {
        Random rnd = new Random(SEED);
        for (int round = 0; round < 3000; round++) {
            byte[] p = randomBytes(rnd, rnd.nextInt(70));
            int from = p.length == 0 ? 0 : rnd.nextInt(p.length + 1);
            int len = rnd.nextInt(p.length - from + 1);
            long ones = 0;
            long first1 = -1;
            long first0 = -1;
            for (long i = 0; i < len * 8L; i++) {
                int bit = naiveBit(p, from * 8L + i);
                ones += bit;
                if (bit == 1 && first1 < 0) {
                    first1 = i;
                }
                if (bit == 0 && first0 < 0) {
                    first0 = i;
                }
            }
            String what = "seed " + SEED + " round " + round;
            assertThat(BitOps.popcount(p, from, len)).as(what).isEqualTo(ones);
            assertThat(BitOps.bitpos(p, from, len, 1)).as(what).isEqualTo(first1);
            assertThat(BitOps.bitpos(p, from, len, 0)).as(what).isEqualTo(first0 < 0 ? len * 8L : first0);
        }
    }

    @Test
    void bitfieldReadsAndWritesMatchABigIntegerModel() {
        Random rnd = new Random(SEED);
        for (int round = 0; round < 3000; round++) {
            byte[] p = randomBytes(rnd, 1 + rnd.nextInt(20));
            int bits = 1 + rnd.nextInt(64);
            long offset = rnd.nextInt(p.length * 8 + 16);
            BigInteger u = BigInteger.ZERO;
            for (int j = 0; j < bits; j++) {
                u = u.shiftLeft(1).or(BigInteger.valueOf(naiveBit(p, offset + j)));
            }
            BigInteger s = u.testBit(bits - 1) ? u.subtract(BigInteger.ONE.shiftLeft(bits)) : u;
            String what = "seed " + SEED + " round " + round;
            assertThat(BitOps.getUnsigned(p, offset, bits)).as(what).isEqualTo(u.longValue());
            assertThat(BitOps.getSigned(p, offset, bits)).as(what).isEqualTo(s.longValue());

            byte[] q = java.util.Arrays.copyOf(p, (int) ((offset + bits + 7) / 8) + 1);
            long v = rnd.nextLong();
            BitOps.setUnsigned(q, offset, bits, v);
            long mask = bits == 64 ? -1L : (1L << bits) - 1;
            assertThat(BitOps.getUnsigned(q, offset, bits)).as(what).isEqualTo(v & mask);
            for (long i = 0; i < q.length * 8L; i++) {
                if (i < offset || i >= offset + bits) {
                    assertThat(naiveBit(q, i)).as("%s, bit %d outside the field", what, i).isEqualTo(naiveBit(p, i));
                }
            }
        }
    }

    @Test
    void incrbyOverflowMatchesABigIntegerModel() {
        Random rnd = new Random(SEED);
        for (int round = 0; round < 20000; round++) {
            boolean signed = rnd.nextBoolean();
            int bits = 1 + rnd.nextInt(signed ? 64 : 63);
            BigInteger min = signed ? BigInteger.ONE.shiftLeft(bits - 1).negate() : BigInteger.ZERO;
            BigInteger max = signed ? BigInteger.ONE.shiftLeft(bits - 1).subtract(BigInteger.ONE)
                    : BigInteger.ONE.shiftLeft(bits).subtract(BigInteger.ONE);
            BigInteger range = max.subtract(min).add(BigInteger.ONE);
            long value = new BigInteger(bits + 8, rnd).mod(range).add(min).longValue();
            long incr = switch (rnd.nextInt(3)) {
                case 0 -> rnd.nextInt(2001) - 1000;
                case 1 -> rnd.nextLong();
                default -> rnd.nextBoolean() ? Long.MAX_VALUE : Long.MIN_VALUE;
            };
            BigInteger sum = BigInteger.valueOf(value).add(BigInteger.valueOf(incr));
            int dir = sum.compareTo(max) > 0 ? 1 : sum.compareTo(min) < 0 ? -1 : 0;
            BigInteger wrapped = sum.subtract(min).mod(range).add(min);
            String what = "seed " + SEED + " round " + round + ": " + (signed ? "i" : "u") + bits + " " + value + " + "
                    + incr;
            if (signed) {
                assertThat(BitOps.signedOverflow(value, incr, bits)).as(what).isEqualTo(dir);
                assertThat(BitOps.signedWrap(value, incr, bits)).as(what).isEqualTo(wrapped.longValue());
                if (dir != 0) {
                    assertThat(BitOps.signedSaturate(dir, bits)).as(what)
                            .isEqualTo((dir > 0 ? max : min).longValue());
                }
            } else {
                assertThat(BitOps.unsignedOverflow(value, incr, bits)).as(what).isEqualTo(dir);
                assertThat(BitOps.unsignedWrap(value, incr, bits)).as(what).isEqualTo(wrapped.longValue());
                if (dir != 0) {
                    assertThat(BitOps.unsignedSaturate(dir, bits)).as(what)
                            .isEqualTo((dir > 0 ? max : min).longValue());
                }
            }
        }
    }

    /** SET checks its value with an increment of 0; Redis's wrapping intermediate makes this one overflow upwards. */
    @Test
    void setOfTheSmallestLongIntoANarrowSignedFieldCountsAsOverflowUpwards() {
        assertThat(BitOps.signedOverflow(Long.MIN_VALUE, 0, 8)).isEqualTo(1);
        assertThat(BitOps.signedOverflow(-129, 0, 8)).isEqualTo(-1);
        assertThat(BitOps.signedOverflow(Long.MIN_VALUE, 0, 64)).isZero();
        assertThat(BitOps.unsignedOverflow(-1L, 0, 8)).as("-1 is 2^64-1 unsigned").isEqualTo(1);
    }
}
