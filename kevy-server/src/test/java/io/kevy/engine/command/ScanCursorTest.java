package io.kevy.engine.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import io.kevy.engine.error.CommandException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ScanCursorTest {

    private static long parse(String s) {
        return ScanCursor.parse(s.getBytes(StandardCharsets.ISO_8859_1));
    }

    @Test
    void shardBitsCoverEveryShardIndex() {
        assertThat(ScanCursor.shardBits(1)).isZero();
        assertThat(ScanCursor.shardBits(2)).isEqualTo(1);
        assertThat(ScanCursor.shardBits(3)).isEqualTo(2);
        assertThat(ScanCursor.shardBits(4)).isEqualTo(2);
        assertThat(ScanCursor.shardBits(5)).isEqualTo(3);
        assertThat(ScanCursor.shardBits(1024)).isEqualTo(10);
    }

    @Test
    void encodingRoundTripsAndStartsAtZero() {
        for (int shards : new int[] {1, 2, 3, 4, 7, 16, 1024}) {
            assertThat(ScanCursor.encode(0, 0, shards)).isZero();
            for (int s = 0; s < shards; s += Math.max(1, shards / 5)) {
                for (long dc : new long[] {0, 1, 12345, (1L << 30) - 1}) {
                    long c = ScanCursor.encode(s, dc, shards);
                    assertThat(ScanCursor.shard(c, shards)).isEqualTo(s);
                    assertThat(ScanCursor.dictCursor(c, shards)).isEqualTo(dc);
                    if (s != 0 || dc != 0) {
                        assertThat(c).isNotZero();
                    }
                }
            }
        }
        assertThat(ScanCursor.encode(0, 77, 1)).isEqualTo(77);
    }

    @Test
    void parsesLikeStrtoul() {
        assertThat(parse("0")).isZero();
        assertThat(parse("")).isZero();
        assertThat(parse("000123")).isEqualTo(123);
        assertThat(parse("+5")).isEqualTo(5);
        assertThat(parse("-1")).isEqualTo(-1L); // 2^64 - 1
        assertThat(parse("18446744073709551615")).isEqualTo(-1L);
        assertThat(parse("-18446744073709551615")).isEqualTo(1);
        assertThat(parse("9223372036854775808")).isEqualTo(Long.MIN_VALUE);
        assertThat(parse("12\0junk")).isEqualTo(12);
        assertThat(parse("\0")).as("C sees the empty string").isZero();
        assertThat(parse("-0")).isZero();
        for (String bad : new String[] {"x", " 1", "1 ", "+", "-", "0x10", "1.5", "18446744073709551616",
            "-18446744073709551616", "99999999999999999999999", "+-1", "\t0", "+\0", "-\0x", "1\r"}) {
            assertThatThrownBy(() -> parse(bad)).as(bad).isInstanceOf(CommandException.class)
                    .hasMessage("ERR invalid cursor");
        }
    }
}
