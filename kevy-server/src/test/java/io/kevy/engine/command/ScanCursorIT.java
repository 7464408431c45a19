package io.kevy.engine.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.server.config.ServerOptions;
import io.kevy.testing.RedisOracle;
import io.kevy.testing.ReplyDiff;
import io.kevy.testing.TestServer;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The one SCAN cursor parser ({@link ScanCursor#parse}) against a real Redis 7.0 in SCAN, SSCAN, HSCAN and
 * ZSCAN: strtoul's rules (a NUL ends the number, signs, wrapping negatives, overflow, spaces, junk). The
 * collections are small (one-shot encodings), so their replies do not depend on the cursor's value.
 */
class ScanCursorIT {
    private static final List<String> CURSORS = List.of("0", "", "00", "+0", "-0", "12\u0000x", "\u0000", "0\u0000junk",
            "18446744073709551616", "-18446744073709551616", "99999999999999999999999", " 0", "0 ", "\t0", "+", "-",
            "+-0", "0x0", "1.0", "abc", "+\u0000");

    @Test
    void everyScanReadsItsCursorAsRedis() {
        try (TestServer kevy = TestServer.start(c -> c.with(ServerOptions.SHARDS, 1));
             RedisOracle redis = RedisOracle.start();
             ReplyDiff diff = new ReplyDiff(kevy.raw(), redis.raw())) {
            diff.same("SADD", "s", "a"); // one key: SCAN's reply does not depend on the hash order
            for (String c : CURSORS) {
                if (c.startsWith("12")) {
                    // a valid cursor into a table whose layout differs between the servers: same kind of reply
                    assertThat(diff.kevy().call("SCAN", c)).startsWith("*2\r\n");
                    assertThat(diff.redis().call("SCAN", c)).startsWith("*2\r\n");
                } else {
                    diff.same("SCAN", c);
                }
            }
            diff.same("HSET", "h", "f", "v");
            diff.same("ZADD", "z", "1", "m");
            for (String c : CURSORS) {
                diff.same("SSCAN", "s", c);
                diff.same("HSCAN", "h", c);
                diff.same("ZSCAN", "z", c);
                diff.same("SSCAN", "missing", c);
            }
        }
    }
}
