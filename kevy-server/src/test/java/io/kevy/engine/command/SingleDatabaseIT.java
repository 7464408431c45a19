package io.kevy.engine.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.testing.OracleFixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The database-index commands (SELECT, MOVE, SWAPDB, COPY ... DB) against a real Redis 7.0 started with
 * {@code --databases 1}, which is what kevy is: every reply and error byte for byte, and no frame from any of them.
 */
class SingleDatabaseIT {
    @RegisterExtension
    static final OracleFixture oracle = OracleFixture.create().redisArgs("--databases", "1").recordFrames();

    @Test
    void moveAnswersAsRedisWithOneDatabase() {
        oracle.same("SET", "k", "v");
        oracle.same("MOVE", "k", "1");
        oracle.same("MOVE", "k", "0");
        oracle.same("MOVE", "nosuch", "0");
        oracle.same("MOVE", "k", "-1");
        oracle.same("MOVE", "k", "x");
        oracle.same("MOVE", "k", "99999999999");
        oracle.same("MOVE", "k");
        oracle.same("MOVE", "k", "0", "extra");
        oracle.same("GET", "k");
        oracle.same("COMMAND", "INFO", "move");
    }

    @Test
    void swapdbAnswersAsRedisWithOneDatabase() {
        oracle.same("SWAPDB", "0", "0");
        oracle.same("SWAPDB", "0", "1");
        oracle.same("SWAPDB", "1", "0");
        oracle.same("SWAPDB", "x", "0");
        oracle.same("SWAPDB", "0", "x");
        oracle.same("SWAPDB", "-1", "0");
        oracle.same("SWAPDB", "0", "99999999999");
        oracle.same("SWAPDB", "0");
        oracle.same("COMMAND", "INFO", "swapdb");
    }

    @Test
    void selectAndCopyDb() {
        oracle.same("SET", "k", "v");
        oracle.same("SELECT", "0");
        oracle.same("SELECT", "1");
        oracle.same("SELECT", "x");
        oracle.same("COPY", "k", "k2", "DB", "1");
        oracle.same("COPY", "k", "k2", "DB", "0");
        oracle.same("GET", "k2");
    }

    @Test
    void noneOfThemEmitsAFrame() {
        oracle.same("SET", "k", "v");
        assertThat(oracle.frames().take()).hasSize(1);
        oracle.same("MOVE", "k", "0");
        oracle.same("MOVE", "k", "1");
        oracle.same("SWAPDB", "0", "0");
        oracle.same("SELECT", "0");
        assertThat(oracle.frames().take()).isEmpty();
    }
}
