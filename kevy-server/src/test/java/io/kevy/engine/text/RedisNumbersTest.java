package io.kevy.engine.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import io.kevy.engine.error.CommandException;
import io.kevy.engine.error.Errors;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Expected strings were printed by a real redis-server 7.0.15. */
class RedisNumbersTest {

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /** The geo formats: fixedpoint_d2string (4 decimals, llrint), %.17Lf trimmed, %f of the error text. */
    @Test
    void geoFormatsArePrintfs() {
        assertThat(RedisNumbers.formatFixed(0, 4)).isEqualTo("0.0000");
        assertThat(RedisNumbers.formatFixed(0.00005, 4)).isEqualTo("0.0000"); // llrint: half to even
        assertThat(RedisNumbers.formatFixed(0.00015, 4)).isEqualTo("0.0001"); // 0.00015 * 1e4 = 1.4999999999999998
        assertThat(RedisNumbers.formatFixed(1.23456, 4)).isEqualTo("1.2346");
        assertThat(RedisNumbers.formatFixed(166274.15156960033, 4)).isEqualTo("166274.1516");
        assertThat(RedisNumbers.formatFixed(-1.5, 4)).isEqualTo("-1.5000");
        assertThat(RedisNumbers.formatHuman(13.361389)).isEqualTo("13.36138900000000085");
        assertThat(RedisNumbers.formatHuman(-0.0)).isEqualTo("0");
        assertThat(RedisNumbers.formatHuman(-1e-30)).isEqualTo("0");
        assertThat(RedisNumbers.formatHuman(180)).isEqualTo("180");
        assertThat(RedisNumbers.formatHuman(Double.NEGATIVE_INFINITY)).isEqualTo("-inf");
        assertThat(RedisNumbers.printfF(-1e-9, 6)).isEqualTo("-0.000000");
        assertThat(RedisNumbers.printfF(-0.0, 6)).isEqualTo("-0.000000");
        assertThat(RedisNumbers.printfF(1e22, 6)).isEqualTo("10000000000000000000000.000000");
        assertThat(RedisNumbers.printfF(Double.POSITIVE_INFINITY, 6)).isEqualTo("inf");
    }

    @Test
    void digitsCountsDecimalDigitsOfEveryMagnitude() {
        long p = 1;
        for (int d = 1; d <= 19; d++, p *= 10) {
            for (long x : new long[] {p - 1, p, p + 1}) {
                assertThat(RedisNumbers.digits(x)).as("%d", x).isEqualTo(Long.toString(x).length());
            }
        }
        for (int k = 0; k < 63; k++) {  // the estimate works from the bit length: every bit-length boundary
            for (long x : new long[] {(1L << k) - 1, 1L << k, (1L << k) + 1}) {
                assertThat(RedisNumbers.digits(x)).as("%d", x).isEqualTo(Long.toString(x).length());
            }
        }
        assertThat(RedisNumbers.digits(Long.MAX_VALUE)).isEqualTo(19);
    }

    @Test
    void integersFollowString2ll() {
        assertThat(RedisNumbers.parseLong(b("0"))).isZero();
        assertThat(RedisNumbers.parseLong(b("-1"))).isEqualTo(-1);
        assertThat(RedisNumbers.parseLong(b("9223372036854775807"))).isEqualTo(Long.MAX_VALUE);
        assertThat(RedisNumbers.parseLong(b("-9223372036854775808"))).isEqualTo(Long.MIN_VALUE);
        for (String bad : new String[] {"", "-", "+1", "01", "-0", " 1", "1 ", "1.0", "9223372036854775808",
            "-9223372036854775809", "99999999999999999999", "1e3", "0x10"}) {
            assertThat(RedisNumbers.isLong(b(bad))).as(bad).isFalse();
            assertThatThrownBy(() -> RedisNumbers.parseLong(b(bad))).as(bad)
                    .isInstanceOf(CommandException.class)
                    .hasMessage("ERR value is not an integer or out of range");
        }
    }

    @ParameterizedTest
    @CsvSource({
        "-7, -7", "0, 0", "0.1, 0.10000000000000001", "1.5, 1.5", "1e-5, 1.0000000000000001e-05",
        "123456789012345678, 1.2345678901234568e+17", "3.0e-300, 3.0000000000000002e-300",
        "2.5e16, 25000000000000000", "1e17, 1e+17", "12345.678, 12345.678", "1.1, 1.1000000000000001",
        "1e20, 1e+20", "inf, inf", "-inf, -inf"})
    void doubleRepliesAreRedis70(String in, String expected) {
        double d = RedisNumbers.parseDouble(b(in), Errors.NOT_FLOAT);
        assertThat(RedisNumbers.formatDouble(d)).isEqualTo(expected);
    }

    /** glibc's {@code %.17g} of a NaN, by its sign bit (a script's {@code {double=0/0}}); never an exception. */
    @Test
    void nanPrintsAsGlibcDoes() {
        assertThat(RedisNumbers.formatDouble(Double.NaN)).isEqualTo("nan");
        assertThat(RedisNumbers.formatDouble(Double.longBitsToDouble(0xfff8000000000000L))).isEqualTo("-nan");
    }

    @Test
    void floatsFollowStrtodWithRedisChecks() {
        assertThat(RedisNumbers.parseDoubleOrNaN(b("0x10"))).isEqualTo(16.0);
        assertThat(RedisNumbers.parseDoubleOrNaN(b(".5"))).isEqualTo(0.5);
        assertThat(RedisNumbers.parseDoubleOrNaN(b("5."))).isEqualTo(5.0);
        assertThat(RedisNumbers.parseDoubleOrNaN(b("+inf"))).isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(RedisNumbers.parseDoubleOrNaN(b("-Infinity"))).isEqualTo(Double.NEGATIVE_INFINITY);
        for (String bad : new String[] {"", " 1", "1 ", "nan", "abc", "1d", "1.5f", "1e400", "1e-400", "--1", "1e",
            "0x"}) {
            assertThat(RedisNumbers.parseDoubleOrNaN(b(bad))).as(bad).isNaN();
        }
    }

    @ParameterizedTest
    @CsvSource({
        "10.50, 0.1, 10.6", "10.6, 1e20, 100000000000000000008", "0.1, 0.2, 0.3", "0.3, 1.5e-10, 0.30000000015",
        "5, 1, 6", "1.5, -1.5, 0", "3, 1e-17, 3.00000000000000001", "-1, 0.9, -0.1", "5.0e3, 0, 5000",
        ".5, .5, 1", "5., 1, 6", "0x10, 1, 17", "1e-400, 1, 1", "-0.0, 0, 0"})
    void incrByFloatUsesLongDoublePrecision(String current, String incr, String expected) {
        assertThat(new String(RedisNumbers.addLongDouble(b(current), b(incr), Errors.NOT_FLOAT),
                StandardCharsets.US_ASCII)).isEqualTo(expected);
    }

    @Test
    void incrByFloatBeyondDoubleRangeIsExactLikeRedis() {
        String twoE308 = new String(RedisNumbers.addLongDouble(b("1e308"), b("1e308"), Errors.NOT_FLOAT),
                StandardCharsets.US_ASCII);
        assertThat(twoE308).startsWith("199999999999999999993371759311691291321120199694831134415594095989843")
                .endsWith("510092687857156096").hasSize(309);
    }

    @Test
    void incrByFloatErrors() {
        assertThatThrownBy(() -> RedisNumbers.addLongDouble(b("abc"), b("1"), Errors.NOT_FLOAT))
                .hasMessage("ERR value is not a valid float");
        assertThatThrownBy(() -> RedisNumbers.addLongDouble(b("1"), b("nan"), Errors.NOT_FLOAT))
                .hasMessage("ERR value is not a valid float");
        assertThatThrownBy(() -> RedisNumbers.addLongDouble(b("inf"), b("1"), Errors.NOT_FLOAT))
                .hasMessage("ERR increment would produce NaN or Infinity");
    }

    @ParameterizedTest
    @CsvSource({"1.1, 1.1", "0.1, 0.1", "3, 3", "-2.5, -2.5", "1e20, 100000000000000000000", "1e21, 1e+21",
        "1e-7, 0.0000001", "1.5e-8, 1.5e-8", "123456789.125, 123456789.125", "inf, inf", "-inf, -inf"})
    void shortestRoundTripsForFrames(String in, String expected) {
        double d = RedisNumbers.parseDouble(b(in), Errors.NOT_FLOAT);
        String s = RedisNumbers.formatShortest(d);
        assertThat(s).isEqualTo(expected);
        assertThat(RedisNumbers.parseDouble(b(s), Errors.NOT_FLOAT)).isEqualTo(d);
    }

    /**
     * Timeouts in seconds as Redis 7.0 converts them, {@code (long long) ceill(strtold(s) * 1000.0)}: the
     * expected values come from that expression compiled with gcc on x86-64 (where an out-of-range conversion
     * gives LLONG_MIN). The same check passed on 4000 random decimals while this was written.
     */
    @ParameterizedTest
    @CsvSource({
        "0.001, 1", "0.009, 9", "0.0001, 1", "-0.0009, 0", "1.5, 1500", "0x10, 16000", "0.1, 100", "0.3, 300",
        "0.7, 700", "1.001, 1001", "2.675, 2675", "0.0015, 2", "123.456, 123456", "1e-400, 1", "-1e-4940, 0",
        "inf, -9223372036854775808", "1e300, -9223372036854775808", "9223372036854775.807, 9223372036854775807",
        "9223372036854775807, -9223372036854775808", "9.3e15, -9223372036854775808",
        "9223372036854775.808, -9223372036854775808", "0x1p-1, 500", "33.333, 33333", "1e15, 1000000000000000000",
        "4.35, 4350", "0.57, 570", "971e-6, 1", "-0.70239, -702", "46.60816, 46609"})
    void timeoutSecondsToMillisAsRedisOnX86(String seconds, long millis) {
        assertThat(RedisNumbers.secondsToMillis(b(seconds), Errors.TIMEOUT_NOT_FLOAT)).isEqualTo(millis);
    }

    @Test
    void timeoutsThatAreNotLongDoubles() {
        for (String bad : new String[] {"", "nan", " 1", "1 ", "1x", "1e5000", "0." + "0".repeat(5200) + "1",
            "1\0"}) {
            assertThatThrownBy(() -> RedisNumbers.secondsToMillis(b(bad), Errors.TIMEOUT_NOT_FLOAT)).as(bad)
                    .hasMessage("ERR timeout is not a float or out of range");
        }
    }
}
