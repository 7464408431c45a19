package io.kevy.engine.text;

import static org.assertj.core.api.Assertions.assertThat;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@link Strtod} against what glibc's strtod returns for the same text (values checked with a C program). */
class StrtodTest {
    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static void parses(String text, double value, int end) {
        Strtod.Result r = Strtod.strtod(b(text), 0);
        assertThat(r.end()).as("end of %s", text).isEqualTo(end);
        assertThat(r.value()).as("value of %s", text).isEqualTo(value);
    }

    @Test
    void readsTheLongestValidPrefix() {
        parses("1.5", 1.5, 3);
        parses("  -2.5e1x", -25, 8);
        parses("+5", 5, 2);
        parses("5.", 5, 2);
        parses(".5", 0.5, 2);
        parses("1e", 1, 1);
        parses("1e+", 1, 1);
        parses("1E3", 1000, 3);
        parses("0x10", 16, 4);
        parses("0X1P-3", 0.125, 6);
        parses("0x.8", 0.5, 4);
        parses("0x1.8p1", 3, 7);
        parses("0x", 0, 1);
        parses("0xg", 0, 1);
        parses("inf", Double.POSITIVE_INFINITY, 3);
        parses("-Infinity", Double.NEGATIVE_INFINITY, 9);
        parses("infin", Double.POSITIVE_INFINITY, 3);
        parses("", 0, 0);
        parses(".", 0, 0);
        parses("-", 0, 0);
        parses("x", 0, 0);
        assertThat(Strtod.strtod(b("nan(chars_1)"), 0).end()).isEqualTo(12);
        assertThat(Strtod.strtod(b("nan("), 0).end()).isEqualTo(3);
        assertThat(Double.doubleToRawLongBits(Strtod.strtod(b("-0"), 0).value()))
                .isEqualTo(Double.doubleToRawLongBits(-0.0));
    }

    @Test
    void flagsOverflowAndUnderflow() {
        assertThat(Strtod.strtod(b("1e400"), 0).overflow()).isTrue();
        assertThat(Strtod.strtod(b("1e400"), 0).value()).isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(Strtod.strtod(b("-1e99999999999"), 0).value()).isEqualTo(Double.NEGATIVE_INFINITY);
        assertThat(Strtod.strtod(b("1e-400"), 0).underflow()).isTrue();
        assertThat(Strtod.strtod(b("0e-400"), 0).underflow()).isFalse();
        assertThat(Strtod.strtod(b("4.9e-324"), 0).underflow()).isFalse();
        assertThat(Strtod.strtod(b("0x1p99999999999"), 0).overflow()).isTrue();
        assertThat(Strtod.strtod(b("inf"), 0).overflow()).isFalse();
    }

    @Test
    void rangeBoundsAcceptWhatStrtodReadsToTheEnd() {
        assertThat(Strtod.parseRangeBound(b("(1.5"), 1)).isEqualTo(1.5);
        assertThat(Strtod.parseRangeBound(b(" 1"), 0)).isEqualTo(1);
        assertThat(Strtod.parseRangeBound(b(""), 0)).isEqualTo(0);
        assertThat(Strtod.parseRangeBound(b("("), 1)).isEqualTo(0);
        assertThat(Strtod.parseRangeBound(b("1e400"), 0)).isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(Strtod.parseRangeBound(b("1 "), 0)).isNaN();
        assertThat(Strtod.parseRangeBound(b("nan"), 0)).isNaN();
        assertThat(Strtod.parseRangeBound(b("infin"), 0)).isNaN();
    }

    @Test
    void strictParsingIsRedisString2d() {
        assertThat(Strtod.parseStrict(b("0x10"))).isEqualTo(16);
        assertThat(Strtod.parseStrict(b("-inf"))).isEqualTo(Double.NEGATIVE_INFINITY);
        assertThat(Strtod.parseStrict(b("4.9e-324"))).isEqualTo(Double.MIN_VALUE);
        assertThat(Strtod.parseStrict(b(" 1"))).isNaN();
        assertThat(Strtod.parseStrict(b(""))).isNaN();
        assertThat(Strtod.parseStrict(b("1e400"))).isNaN();
        assertThat(Strtod.parseStrict(b("1e-400"))).isNaN();
        assertThat(Strtod.parseStrict(b("nan"))).isNaN();
        assertThat(Strtod.parseStrict(b("1x"))).isNaN();
    }

    /** SORT's weights: strtod over the whole C string, with every ERANGE case an error (checked against Redis 7.0). */
    @Test
    void sortWeights() {
        assertThat(Strtod.parseSortWeight(b(""))).isZero();
        assertThat(Strtod.parseSortWeight(b("\u0000x"))).as("empty as a C string").isZero();
        assertThat(Strtod.parseSortWeight(b("  -1.5"))).isEqualTo(-1.5);
        assertThat(Strtod.parseSortWeight(b("0x10"))).isEqualTo(16);
        assertThat(Strtod.parseSortWeight(b("-inf"))).isEqualTo(Double.NEGATIVE_INFINITY);
        assertThat(Strtod.parseSortWeight(b("2\u0000junk"))).as("a C string ends at NUL").isEqualTo(2);
        assertThat(Strtod.parseSortWeight(b("0x1p-1070"))).as("an exact subnormal").isEqualTo(0x1p-1070);
        assertThat(Strtod.parseSortWeight(b("2.2250738585072014e-308"))).isEqualTo(Double.MIN_NORMAL);
        for (String bad : new String[] {" ", "1 ", "x", "nan", "nan(1)", "1e400", "-1e400", "1e-400", "1e-310",
            "4.9406564584124654e-324", "2.2250738585072011e-308", "0x1.8p-1074", "0x1p-1075", "0x", "1e"}) {
            assertThat(Strtod.parseSortWeight(b(bad))).as("'%s'", bad).isNaN();
        }
    }
}
