package io.kevy.engine.text;

import static org.assertj.core.api.Assertions.assertThat;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GlobTest {

    private static boolean m(String pattern, String subject) {
        return Glob.matches(pattern.getBytes(StandardCharsets.ISO_8859_1),
                subject.getBytes(StandardCharsets.ISO_8859_1), false);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "*|anything|true", "*|''|true", "h?llo|hello|true", "h?llo|hllo|false", "h*llo|heeeello|true",
        "h[ae]llo|hallo|true", "h[ae]llo|hillo|false", "h[^e]llo|hallo|true", "h[^e]llo|hello|false",
        "h[a-b]llo|hbllo|true", "h[b-a]llo|hallo|true", "h[a-b]llo|hcllo|false", "h\\*llo|h*llo|true",
        "h\\*llo|hello|false", "user:*|user:1|true", "user:*|order:1|false", "a*b*c|aXbYc|true",
        "a*b*c|aXbY|false", "*a|ba|true", "**|x|true", "[abc|b|true", "a[|a[|false"})
    void matchesLikeRedis(String pattern, String subject, boolean expected) {
        assertThat(m(pattern, subject.equals("''") ? "" : subject)).isEqualTo(expected);
    }

    @Test
    void nocaseCompares() {
        assertThat(Glob.matches("HE*".getBytes(), "hello".getBytes(), true)).isTrue();
        assertThat(Glob.matches("HE*".getBytes(), "hello".getBytes(), false)).isFalse();
    }

    @Test
    void hugePatternDoesNotOverflowTheStack() {
        byte[] pattern = new byte[100_000];
        Arrays.fill(pattern, (byte) '*');
        pattern[pattern.length - 1] = 'x';
        byte[] subject = new byte[10_000];
        Arrays.fill(subject, (byte) 'a');
        assertThat(Glob.matches(pattern, subject, false)).isFalse();
        subject[subject.length - 1] = 'x';
        assertThat(Glob.matches(pattern, subject, false)).isTrue();
    }

    @Test
    void pathologicalStarsStayPolynomial() {
        String pattern = "a*".repeat(2000) + "b";
        byte[] subject = "a".repeat(5000).getBytes();
        long t0 = System.nanoTime();
        assertThat(Glob.matches(pattern.getBytes(), subject, false)).isFalse();
        assertThat(System.nanoTime() - t0).isLessThan(5_000_000_000L);
    }
}
