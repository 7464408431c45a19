package io.kevy.bridge.webhook;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/** Parses an HTTP {@code Retry-After} header (RFC 9110 §10.2.3): delay-seconds or an HTTP-date. */
final class RetryAfter {
    private RetryAfter() {
    }

    /**
     * The delay {@code value} asks for, measured from {@code now}; null when the value is absent or malformed.
     * A date in the past gives zero.
     */
    static Duration parse(String value, Instant now) {
        if (value == null) {
            return null;
        }
        String v = value.trim();
        if (v.isEmpty()) {
            return null;
        }
        if (v.chars().allMatch(Character::isDigit)) {
            try {
                return Duration.ofSeconds(Long.parseLong(v));
            } catch (NumberFormatException e) {
                return null;
            }
        }
        try {
            Instant at = ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
            Duration d = Duration.between(now, at);
            return d.isNegative() ? Duration.ZERO : d;
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
