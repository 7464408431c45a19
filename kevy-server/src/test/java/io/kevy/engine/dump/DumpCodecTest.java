package io.kevy.engine.dump;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kevy.engine.config.EncodingLimits;
import io.kevy.engine.type.ListValue;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The building blocks of the DUMP format: CRC64's check value, LZF round trips, listpack round trips and limits. */
class DumpCodecTest {
    @Test
    void crc64IsRedisJones() {
        byte[] b = "123456789".getBytes(StandardCharsets.US_ASCII);
        assertThat(Crc64.update(0, b, 0, b.length)).isEqualTo(0xe9c6d914c4b8d9caL);
    }

    @Test
    void lzfRoundTripsAndNeverOverflows() {
        long seed = System.nanoTime();
        System.out.println("DumpCodecTest seed " + seed);
        Random rnd = new Random(seed);
        int compressed = 0;
        for (int i = 0; i < 2000; i++) {
            byte[] in = new byte[1 + rnd.nextInt(3000)];
            int alphabet = 1 + rnd.nextInt(rnd.nextBoolean() ? 4 : 256);
            for (int j = 0; j < in.length; j++) {
                in[j] = (byte) rnd.nextInt(alphabet);
            }
            byte[] c = Lzf.compress(in, Math.max(1, in.length - 4));
            if (c != null) {
                compressed++;
                assertThat(c.length).isLessThanOrEqualTo(in.length - 4);
                assertThat(Lzf.decompress(c, 0, c.length, in.length)).isEqualTo(in);
                assertThat(Lzf.decompress(c, 0, c.length, in.length + 1)).as("a wrong length").isNull();
            }
        }
        assertThat(compressed).isGreaterThan(500);
        for (int i = 0; i < 2000; i++) {
            byte[] junk = new byte[rnd.nextInt(40)];
            rnd.nextBytes(junk);
            Lzf.decompress(junk, 0, junk.length, rnd.nextInt(200)); // null or bytes, never an exception
        }
    }

    @Test
    void listpackRoundTripsAndRefusesCorruption() {
        List<String> elements = List.of("a", "0", "127", "128", "-1", "-4096", "4095", "32767", "-32768",
                "8388607", "-8388608", "2147483647", "-2147483648", "9223372036854775807", "-9223372036854775808",
                "007", "-0", "x".repeat(63), "y".repeat(64), "z".repeat(4095), "w".repeat(4096), "");
        Listpack.Builder b = new Listpack.Builder();
        elements.forEach(e -> b.add(e.getBytes(StandardCharsets.US_ASCII)));
        byte[] lp = b.build();
        assertThat(lp.length).isEqualTo(b.bytes());
        assertThat(Listpack.read(lp).stream().map(x -> new String(x, StandardCharsets.US_ASCII)).toList())
                .isEqualTo(elements);
        byte[] cut = java.util.Arrays.copyOf(lp, lp.length - 1);
        assertThatThrownBy(() -> Listpack.read(cut)).isInstanceOf(DumpFormatException.class);
        Random rnd = new Random(7);
        for (int i = 0; i < 5000; i++) {
            byte[] bad = lp.clone();
            bad[rnd.nextInt(bad.length)] = (byte) rnd.nextInt(256);
            try {
                Listpack.read(bad);
            } catch (DumpFormatException expected) {
                // refused with a reason
            }
        }
    }

    @Test
    void listsAreCutIntoQuicklistNodesAsRedisDoes() {
        ListValue l = new ListValue();
        for (int i = 0; i < 2000; i++) {
            l.pushRight(("element" + i).getBytes(StandardCharsets.US_ASCII));
        }
        byte[] p = DumpEncoder.dump(l, EncodingLimits.DEFAULTS, false);
        assertThat(p[0]).isEqualTo((byte) 18);
        assertThat(p[1]).as("nodes of at most 8 KiB").isGreaterThan((byte) 1);
        assertThat(DumpDecoder.verify(p)).isTrue();
        ListValue back = (ListValue) DumpDecoder.decode(p, EncodingLimits.DEFAULTS);
        assertThat(back.size()).isEqualTo(2000);
        assertThat(new String(back.get(1999), StandardCharsets.US_ASCII)).isEqualTo("element1999");
    }
}
