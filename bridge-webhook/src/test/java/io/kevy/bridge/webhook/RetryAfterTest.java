package io.kevy.bridge.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Retry-After: delay-seconds and HTTP-date (RFC 9110 §10.2.3). */
class RetryAfterTest {
    private static final Instant NOW = Instant.parse("2026-01-05T10:00:00Z");

    @Test
    void seconds() {
        assertThat(RetryAfter.parse("120", NOW)).isEqualTo(Duration.ofSeconds(120));
        assertThat(RetryAfter.parse(" 0 ", NOW)).isEqualTo(Duration.ZERO);
    }

    @Test
    void httpDate() {
        assertThat(RetryAfter.parse("Mon, 05 Jan 2026 10:00:30 GMT", NOW)).isEqualTo(Duration.ofSeconds(30));
        assertThat(RetryAfter.parse("Mon, 05 Jan 2026 09:00:00 GMT", NOW)).isEqualTo(Duration.ZERO);
    }

    @Test
    void absentOrMalformedIsNull() {
        assertThat(RetryAfter.parse(null, NOW)).isNull();
        assertThat(RetryAfter.parse("", NOW)).isNull();
        assertThat(RetryAfter.parse("soon", NOW)).isNull();
        assertThat(RetryAfter.parse("-5", NOW)).isNull();
        assertThat(RetryAfter.parse("99999999999999999999999", NOW)).isNull();
    }
}
