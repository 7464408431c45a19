package io.kevy.engine.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.testing.OracleFixture;
import io.kevy.testing.RawClient;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Consumer groups (XGROUP, XREADGROUP, XACK, XPENDING, XCLAIM, XAUTOCLAIM) and XINFO against a real Redis 7.0: the
 * replies byte for byte, except the times Redis and kevy read from their own clocks (idle times, seen times,
 * delivery times not set by XCLAIM TIME), which {@link #sameTimesMasked} (and for XPENDING's extended form
 * {@link #sameMasked}) blanks out; and the frames that rebuild a group.
 */
class StreamGroupsIT {
    @RegisterExtension
    static final OracleFixture oracle = OracleFixture.create().recordFrames();

    private static String same(String line) {
        return oracle.sameLine(line);
    }

    /** As {@link #same}, with every integer reply blanked (XPENDING's extended form: its idle times are positional). */
    private static void sameMasked(String line) {
        String[] args = line.split(" ");
        String k = oracle.diff().kevy().call(args);
        String r = oracle.diff().redis().call(args);
        assertThat(mask(k)).as("reply to %s", line).isEqualTo(mask(r));
    }

    private static String mask(String reply) {
        return reply.replaceAll(":\\d+\r\n", ":N\r\n");
    }

    /**
     * As {@link #same}, with only the times blanked: {@code idle} values and absolute times in ms (13 digits and
     * more: seen times, delivery times); counts, entries-read and lag stay compared (XINFO GROUPS holds no time).
     */
    private static void sameTimesMasked(String line) {
        String[] args = line.split(" ");
        String k = oracle.diff().kevy().call(args);
        String r = oracle.diff().redis().call(args);
        assertThat(maskTimes(k)).as("reply to %s", line).isEqualTo(maskTimes(r));
    }

    private static String maskTimes(String reply) {
        return reply.replaceAll("(\\$4\r\nidle\r\n):\\d+\r\n", "$1:N\r\n")
                .replaceAll(":\\d{13,}\r\n", ":T\r\n");
    }

    @Test
    void groupsLifecycleMatchesRedis() {
        same("XGROUP CREATE gs g1 $");
        same("XGROUP CREATE gs g1 $ MKSTREAM");
        same("XGROUP CREATE gs g1 $ MKSTREAM");
        same("TYPE gs");
        same("XLEN gs");
        same("XINFO STREAM gs");
        same("XADD gs 1-1 a 1");
        same("XADD gs 2-1 b 2");
        same("XADD gs 3-1 c 3");
        same("XGROUP CREATE gs g2 0 ENTRIESREAD 0");
        same("XGROUP CREATE gs g3 2-1");
        same("XGROUP CREATE gs g4 0 ENTRIESREAD -2");
        same("XGROUP CREATE gs g4 0 FOO");
        same("XGROUP CREATE gs g4 abc");
        same("XGROUP CREATE missing g 0");
        same("XGROUP CREATE gs");
        same("XGROUP SETID gs nogroup 0");
        same("XGROUP SETID gs g3 $");
        same("XGROUP SETID gs g3 1-1 ENTRIESREAD 1");
        same("XGROUP SETID gs g3 1-1 MKSTREAM");
        same("XGROUP CREATECONSUMER gs g2 alice");
        same("XGROUP CREATECONSUMER gs g2 alice");
        same("XGROUP CREATECONSUMER gs nogroup alice");
        same("XGROUP DELCONSUMER gs g2 bob");
        same("XGROUP FOO gs g2");
        same("XGROUP HELP");
        same("XINFO GROUPS gs");
        sameTimesMasked("XINFO CONSUMERS gs g2");
        same("XINFO CONSUMERS gs nogroup");
        same("XINFO STREAM gs");
        same("XINFO STREAM missing");
        same("XINFO STREAM gs FOO");
        same("XINFO HELP");
        same("XGROUP DESTROY gs g1");
        same("XGROUP DESTROY gs g1");
        same("SET str v");
        same("XGROUP CREATE str g 0");
        same("XINFO STREAM str");
    }

    @Test
    void readingThroughAGroupMatchesRedis() {
        for (int i = 1; i <= 5; i++) {
            oracle.same("XADD", "rg", i + "-0", "f", "v" + i);
        }
        same("XGROUP CREATE rg g 0");
        same("XREADGROUP GROUP g alice COUNT 2 STREAMS rg >");
        same("XREADGROUP GROUP g bob STREAMS rg >");
        same("XREADGROUP GROUP g bob STREAMS rg >");
        same("XREADGROUP GROUP g alice STREAMS rg 0");
        same("XREADGROUP GROUP g alice COUNT 1 STREAMS rg 1-0");
        same("XPENDING rg g");
        sameMasked("XPENDING rg g - + 10");
        sameMasked("XPENDING rg g - + 10 bob");
        same("XPENDING rg g - + 10 carol");
        same("XPENDING rg g IDLE 999999 - + 10");
        same("XPENDING rg g (1-0 (5-0 0");
        same("XPENDING rg g - + x");
        same("XPENDING rg g - +");
        same("XPENDING rg nogroup");
        same("XPENDING missing g");
        same("XACK rg g 1-0 2-0 9-0");
        same("XACK rg g 1-0");
        same("XACK rg g abc");
        same("XACK rg nogroup 1-0");
        same("XPENDING rg g");
        same("XDEL rg 3-0");
        same("XREADGROUP GROUP g bob STREAMS rg 0");
        same("XINFO GROUPS rg");
        same("XREADGROUP GROUP g alice STREAMS rg $");
        same("XREADGROUP GROUP nogroup alice STREAMS rg >");
        same("XREADGROUP GROUP g alice STREAMS missing >");
        same("XREADGROUP STREAMS rg >");
        same("XREADGROUP GROUP g alice STREAMS rg");
        same("XREADGROUP GROUP g alice NOACK STREAMS rg >");
        same("XADD rg 6-0 f v6");
        same("XREADGROUP GROUP g carol NOACK STREAMS rg >");
        same("XPENDING rg g");
        sameTimesMasked("XINFO CONSUMERS rg g");
        same("XREADGROUP GROUP g alice BLOCK 10 STREAMS rg >");
    }

    /** Redis stores {@code >} as the largest id: an explicit largest id reads new entries, not the history. */
    @Test
    void theLargestIdInXreadgroupReadsNewEntriesAsRedis() {
        same("XADD mx 1-1 f v");
        same("XADD mx 2-1 f v");
        same("XGROUP CREATE mx g 0");
        same("XREADGROUP GROUP g c COUNT 1 STREAMS mx 18446744073709551615-18446744073709551615");
        same("XPENDING mx g");
        same("XREADGROUP GROUP g c STREAMS mx 18446744073709551615-18446744073709551615");
        same("XREADGROUP GROUP g c STREAMS mx 18446744073709551615-18446744073709551615");
        same("XREADGROUP GROUP g c STREAMS mx 18446744073709551615-18446744073709551614");
        same("XREADGROUP GROUP g c STREAMS mx 0");
        same("XPENDING mx g");
    }

    @Test
    void claimingMatchesRedis() {
        for (int i = 1; i <= 6; i++) {
            oracle.same("XADD", "cl", i + "-0", "f", "v" + i);
        }
        same("XGROUP CREATE cl g 0");
        same("XREADGROUP GROUP g alice STREAMS cl >");
        same("XCLAIM cl g bob 0 1-0 2-0 TIME 1000 RETRYCOUNT 7");
        same("XCLAIM cl g bob 0 3-0 JUSTID TIME 2000");
        same("XCLAIM cl g carol 0 9-0 FORCE JUSTID");
        same("XCLAIM cl g carol 3600000 1-0 4-0");
        same("XCLAIM cl g carol 0 4-0 IDLE 5000 JUSTID RETRYCOUNT 2");
        same("XCLAIM cl g carol 0 4-0 FOO");
        same("XCLAIM cl g carol x 4-0");
        same("XCLAIM cl g carol 0 4-0 TIME x");
        same("XCLAIM cl g carol 0 4-0 LASTID x");
        same("XCLAIM cl nogroup carol 0 4-0");
        same("XCLAIM cl g carol 0 4-0 LASTID 5-0 TIME 3000");
        same("XINFO GROUPS cl");
        same("XDEL cl 2-0");
        same("XCLAIM cl g carol 0 2-0 TIME 4000");
        same("XPENDING cl g");
        same("XACK cl g 5-0 6-0");
        same("XAUTOCLAIM cl g dave 0 0 COUNT 1 JUSTID");
        same("XAUTOCLAIM cl g dave 0 0 COUNT 10 JUSTID");
        same("XDEL cl 3-0");
        same("XAUTOCLAIM cl g erin 0 (0-0 COUNT 2");
        same("XAUTOCLAIM cl g erin 3600000 0");
        same("XAUTOCLAIM cl g erin 0 0 COUNT 0");
        same("XAUTOCLAIM cl g erin 0 0 COUNT 576460752303423488"); // above LONG_MAX / sizeof(streamID)
        same("XAUTOCLAIM cl g erin 0 0 FOO");
        same("XAUTOCLAIM cl g erin x 0");
        same("XAUTOCLAIM cl nogroup erin 0 0");
        same("XAUTOCLAIM missing g erin 0 0");
        same("XPENDING cl g");
        same("XINFO STREAM cl");
        same("XCLAIM cl g bob 0 1-0 4-0 TIME 1000 RETRYCOUNT 3 JUSTID");
        sameTimesMasked("XINFO STREAM cl FULL");
        sameTimesMasked("XINFO STREAM cl FULL COUNT 1");
        same("XGROUP DELCONSUMER cl g bob");
        same("XPENDING cl g");
    }

    @Test
    void xinfoRadixTreeCountsFollowRedisNodes() {
        for (int i = 1; i <= 1000; i++) {
            oracle.same("XADD", "big", (i * 7) + "-" + (i % 3), "f", "v");
        }
        same("XINFO STREAM big");
        same("XDEL big 7-1 14-2 21-0");
        same("XTRIM big MAXLEN ~ 750");
        same("XINFO STREAM big");
        for (int i = 1; i <= 300; i++) {
            oracle.same("XADD", "far", (i * 100_003L * 1_000_000L) + "-" + i, "f", "v");
        }
        same("XINFO STREAM far");
    }

    @Test
    void blockedGroupReadIsServedAndEmitsTheDelivery() {
        same("XGROUP CREATE bq g $ MKSTREAM");
        try (RawClient kb = oracle.kevy().raw(); RawClient rb = oracle.redis().raw()) {
            kb.command("XREADGROUP", "GROUP", "g", "w", "BLOCK", "0", "STREAMS", "bq", ">");
            rb.command("XREADGROUP", "GROUP", "g", "w", "BLOCK", "0", "STREAMS", "bq", ">");
            Awaitility.await().until(() -> oracle.diff().kevy().call("INFO", "clients")
                    .contains("blocked_clients:1"));
            Awaitility.await().until(() -> oracle.diff().redis().call("INFO", "clients")
                    .contains("blocked_clients:1"));
            oracle.frames().take();
            same("XADD bq 1-1 job 1");
            assertThat(kb.readReply()).isEqualTo(rb.readReply()).contains("1-1");
            assertThat(oracle.frames().take()).satisfiesExactly(
                    f -> assertThat(f).isEqualTo("XADD bq 1-1 job 1"),
                    f -> assertThat(f).isEqualTo("XGROUP CREATECONSUMER bq g w"),
                    f -> assertThat(f).matches("XCLAIM bq g w 0 1-1 TIME \\d+ RETRYCOUNT 1 FORCE JUSTID"),
                    f -> assertThat(f).isEqualTo("XGROUP SETID bq g 1-1 ENTRIESREAD 1"));
        }
        same("XPENDING bq g");
    }

    /**
     * A blocked XREADGROUP whose stream is deleted, overwritten by another type or flushed ends at once with Redis
     * 7.0's {@code -UNBLOCKED} error (it waited for a later XADD, or forever); one whose group is destroyed ends
     * with NOGROUP at the next XADD; a blocked XREAD keeps waiting through the same changes.
     */
    @Test
    void aBlockedGroupReadEndsWhenItsStreamGoesAsInRedis() {
        for (String change : List.of("DEL bg", "SET bg x", "FLUSHALL", "RENAME bg {bg}2", "XGROUP DESTROY bg g")) {
            same("DEL bg {bg}2");
            same("XGROUP CREATE bg g $ MKSTREAM");
            try (RawClient kb = oracle.kevy().raw(); RawClient rb = oracle.redis().raw();
                 RawClient kx = oracle.kevy().raw(); RawClient rx = oracle.redis().raw()) {
                kb.command("XREADGROUP", "GROUP", "g", "c", "BLOCK", "0", "STREAMS", "bg", ">");
                rb.command("XREADGROUP", "GROUP", "g", "c", "BLOCK", "0", "STREAMS", "bg", ">");
                kx.command("XREAD", "BLOCK", "0", "STREAMS", "bg", "$");
                rx.command("XREAD", "BLOCK", "0", "STREAMS", "bg", "$");
                awaitBlocked(2);
                same(change);
                if (change.startsWith("XGROUP")) {
                    same("XADD bg 1-1 f v");
                    assertThat(kb.readReply()).as(change).isEqualTo(rb.readReply())
                            .startsWith("-NOGROUP the consumer group this client was blocked on");
                    assertThat(kx.readReply()).isEqualTo(rx.readReply()).contains("1-1");
                    continue;
                }
                assertThat(kb.readReply()).as(change).isEqualTo(rb.readReply())
                        .isEqualTo("-UNBLOCKED the stream key no longer exists\r\n");
                awaitBlocked(1); // XREAD still waits
                same("DEL bg");
                same("XADD bg 2-1 f v");
                assertThat(kx.readReply()).as(change).isEqualTo(rx.readReply()).contains("2-1");
            }
        }
    }

    /**
     * Redis 7.0 serves blocked stream readers only when the stream is signalled (XADD, XGROUP DESTROY, the key
     * created, replaced or deleted), not after other writes: XGROUP SETID back to 0, XDEL, XTRIM, XSETID,
     * XGROUP CREATE and CREATECONSUMER leave a blocked XREADGROUP (whose group is now behind) and a blocked XREAD
     * waiting, and the next XADD serves the group reader from the group's position. A signal whose entries are
     * gone again (MULTI XADD + XDEL) serves both with no entries; destroying another group serves a group that
     * is behind. What each client gets, and that it gets nothing before, is compared byte for byte.
     */
    @Test
    void blockedStreamReadersWaitForASignalAsInRedis() {
        same("XADD sw 1-1 f a");
        same("XADD sw 2-1 f b");
        same("XADD sw 3-1 f c");
        same("XADD sw 4-1 f d");
        same("XGROUP CREATE sw g $");
        try (RawClient kb = oracle.kevy().raw(); RawClient rb = oracle.redis().raw();
             RawClient kx = oracle.kevy().raw(); RawClient rx = oracle.redis().raw()) {
            kb.command("XREADGROUP", "GROUP", "g", "c", "BLOCK", "0", "STREAMS", "sw", ">");
            rb.command("XREADGROUP", "GROUP", "g", "c", "BLOCK", "0", "STREAMS", "sw", ">");
            kx.command("XREAD", "BLOCK", "0", "STREAMS", "sw", "$");
            rx.command("XREAD", "BLOCK", "0", "STREAMS", "sw", "$");
            awaitBlocked(2);
            for (String change : List.of("XGROUP SETID sw g 0", "XDEL sw 2-1", "XTRIM sw MAXLEN 2",
                    "XSETID sw 5-0", "XGROUP CREATE sw g2 0", "XGROUP CREATECONSUMER sw g x",
                    "XREADGROUP GROUP g2 y COUNT 1 STREAMS sw >", "XCLAIM sw g2 z 0 3-1", "XACK sw g2 3-1")) {
                same(change);
                for (RawClient blocked : List.of(kb, rb, kx, rx)) {
                    assertThat(blocked.replyWithin(50)).as("a reply after %s", change).isFalse();
                }
            }
            awaitBlocked(2);
            same("XADD sw 6-1 f e");
            assertThat(kb.readReply()).isEqualTo(rb.readReply()).contains("3-1").contains("4-1").contains("6-1");
            assertThat(kx.readReply()).isEqualTo(rx.readReply()).contains("6-1").doesNotContain("4-1");
            same("XINFO GROUPS sw");

            kb.command("XREADGROUP", "GROUP", "g", "c", "BLOCK", "0", "STREAMS", "sw", ">");
            rb.command("XREADGROUP", "GROUP", "g", "c", "BLOCK", "0", "STREAMS", "sw", ">");
            kx.command("XREAD", "BLOCK", "0", "STREAMS", "sw", "$");
            rx.command("XREAD", "BLOCK", "0", "STREAMS", "sw", "$");
            awaitBlocked(2);
            same("MULTI");
            same("XADD sw 7-1 f g");
            same("XDEL sw 7-1");
            same("EXEC");
            assertThat(kb.readReply()).isEqualTo(rb.readReply()).endsWith("$2\r\nsw\r\n*0\r\n");
            assertThat(kx.readReply()).isEqualTo(rx.readReply()).endsWith("$2\r\nsw\r\n*0\r\n");
            same("XINFO GROUPS sw");

            kb.command("XREADGROUP", "GROUP", "g", "c", "BLOCK", "0", "STREAMS", "sw", ">");
            rb.command("XREADGROUP", "GROUP", "g", "c", "BLOCK", "0", "STREAMS", "sw", ">");
            awaitBlocked(1);
            same("XGROUP SETID sw g 4-1");
            assertThat(kb.replyWithin(50)).isFalse();
            assertThat(rb.replyWithin(50)).isFalse();
            same("XGROUP DESTROY sw g2");
            assertThat(kb.readReply()).isEqualTo(rb.readReply()).contains("6-1").doesNotContain("4-1");
        }
        same("XINFO GROUPS sw");
        sameTimesMasked("XINFO CONSUMERS sw g");
    }

    private static void awaitBlocked(int n) {
        Awaitility.await().until(() -> oracle.diff().kevy().call("INFO", "clients")
                .contains("blocked_clients:" + n + "\r\n"));
        Awaitility.await().until(() -> oracle.diff().redis().call("INFO", "clients")
                .contains("blocked_clients:" + n + "\r\n"));
    }

    @Test
    void framesOfGroupCommands() {
        RawClient k = oracle.kevy().raw();
        k.call("XADD", "fg", "1-1", "a", "1");
        k.call("XADD", "fg", "2-1", "a", "2");
        oracle.frames().take();
        k.call("XGROUP", "CREATE", "fg", "g", "$");
        k.call("XGROUP", "CREATE", "fg", "g", "$");
        k.call("XGROUP", "CREATE", "fgnew", "g", "$", "MKSTREAM");
        k.call("XGROUP", "SETID", "fg", "g", "0");
        assertThat(oracle.frames().take()).containsExactly("XGROUP CREATE fg g 2-1 ENTRIESREAD -1",
                "XGROUP CREATE fgnew g 0-0 MKSTREAM ENTRIESREAD -1", "XGROUP SETID fg g 0-0 ENTRIESREAD -1");
        k.call("XREADGROUP", "GROUP", "g", "c", "NOACK", "COUNT", "1", "STREAMS", "fg", ">");
        assertThat(oracle.frames().take()).containsExactly("XGROUP CREATECONSUMER fg g c",
                "XGROUP SETID fg g 1-1 ENTRIESREAD 1");
        k.call("XREADGROUP", "GROUP", "g", "c", "STREAMS", "fg", ">");
        assertThat(oracle.frames().take()).satisfiesExactly(
                f -> assertThat(f).matches("XCLAIM fg g c 0 2-1 TIME \\d+ RETRYCOUNT 1 FORCE JUSTID"),
                f -> assertThat(f).isEqualTo("XGROUP SETID fg g 2-1 ENTRIESREAD 2"));
        k.call("XREADGROUP", "GROUP", "g", "c", "STREAMS", "fg", "0");
        assertThat(oracle.frames().take()).singleElement().asString()
                .matches("XCLAIM fg g c 0 2-1 TIME \\d+ RETRYCOUNT 2 FORCE JUSTID");
        k.call("XCLAIM", "fg", "g", "d", "0", "2-1", "TIME", "5", "JUSTID");
        assertThat(oracle.frames().take()).containsExactly("XGROUP CREATECONSUMER fg g d",
                "XCLAIM fg g d 0 2-1 TIME 5 RETRYCOUNT 2 FORCE JUSTID");
        k.call("XDEL", "fg", "2-1");
        oracle.frames().take();
        k.call("XAUTOCLAIM", "fg", "g", "e", "0", "0");
        assertThat(oracle.frames().take()).containsExactly("XACK fg g 2-1");
        k.call("XACK", "fg", "g", "2-1");
        k.call("XGROUP", "DELCONSUMER", "fg", "g", "nobody");
        k.call("XGROUP", "DESTROY", "fg", "nogroup");
        k.call("XREADGROUP", "GROUP", "g", "c", "STREAMS", "fg", ">");
        assertThat(oracle.frames().take()).as("no-ops emit nothing").isEmpty();
        k.call("XGROUP", "DELCONSUMER", "fg", "g", "c");
        k.call("XGROUP", "DESTROY", "fg", "g");
        assertThat(oracle.frames().take()).containsExactly("XGROUP DELCONSUMER fg g c", "XGROUP DESTROY fg g");
    }
}
