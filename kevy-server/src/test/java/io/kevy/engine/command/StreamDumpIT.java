package io.kevy.engine.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.testing.OracleFixture;
import io.kevy.testing.RawClient;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Streams' listpack nodes against a real Redis 7.0: node boundaries (stream-node-max-bytes and -entries), the
 * deleted flags XDEL and exact trimming leave, approximate trimming by whole nodes, and DUMP/RESTORE of streams
 * (RDB_TYPE_STREAM_LISTPACKS_2) byte for byte, groups, PELs and consumers included; hostile stream payloads.
 */
class StreamDumpIT {
    @RegisterExtension
    static final OracleFixture oracle = OracleFixture.create().shards(2).redisArgs("--enable-debug-command", "yes");

    private static RawClient kevy() {
        return oracle.diff().kevy();
    }

    private static RawClient redis() {
        return oracle.diff().redis();
    }

    private static byte[] dump(RawClient c, String key) {
        return DumpRestoreIT.dump(c, key);
    }

    private static String restore(RawClient c, String key, byte[] payload) {
        return DumpRestoreIT.restore(c, key, "0", payload, "REPLACE");
    }

    private static void same(String... cmd) {
        oracle.same(cmd);
    }

    private static void assertSameDump(String key) {
        same("XINFO", "STREAM", key);
        assertThat(dump(kevy(), key)).as("DUMP %s", key).isEqualTo(dump(redis(), key));
    }

    /** XADD key id field value ... on both. */
    private static void xadd(String key, String id, String... fv) {
        List<String> cmd = new ArrayList<>(List.of("XADD", key, id));
        cmd.addAll(List.of(fv));
        same(cmd.toArray(new String[0]));
    }

    @Test
    void nodesCloseAtRedisBytesAndEntriesAndDumpIsRedisBytes() {
        // same fields (SAMEFIELDS), other fields, integer fields and values, 64-bit id deltas, negative seq deltas
        xadd("s:small", "1-1", "f", "v");
        xadd("s:small", "1-5", "f", "w");
        xadd("s:small", "2-0", "f", "12", "g", "-7000");
        xadd("s:small", "18446744073709551614-3", "100", "x");
        assertSameDump("s:small");
        for (int i = 1; i <= 450; i++) {
            xadd("s:many", i + "-" + (i % 3), "name", "n" + i, "n", Integer.toString(i * 37));
        }
        assertSameDump("s:many");
        for (int i = 1; i <= 120; i++) { // values of 100-300 bytes: nodes close on stream-node-max-bytes
            xadd("s:big", i + "-0", "payload", "p".repeat(100 + (i * 7) % 200), "i", Integer.toString(i));
        }
        assertSameDump("s:big");
        xadd("s:huge", "1-0", "f", "x".repeat(5000));
        xadd("s:huge", "2-0", "f", "y".repeat(70000));
        xadd("s:huge", "3-0", "f", "z");
        assertSameDump("s:huge");
    }

    @Test
    void deletedFlagsAndCountersAreRedis() {
        for (int i = 1; i <= 250; i++) {
            xadd("s:del", i + "-0", "a", Integer.toString(i), "b", "v" + i);
        }
        same("XDEL", "s:del", "3-0", "4-0", "150-0", "250-0");
        assertSameDump("s:del");
        List<String> wholeNode = new ArrayList<>(List.of("XDEL", "s:del"));
        for (int i = 101; i <= 200; i++) {
            wholeNode.add(i + "-0");
        }
        same(wholeNode.toArray(new String[0])); // the second node loses its last live entry: it goes
        assertSameDump("s:del");
        same("XTRIM", "s:del", "MAXLEN", "30"); // exact: the first node's entries flagged, the node stays
        assertSameDump("s:del");
        same("XTRIM", "s:del", "MINID", "240-0");
        assertSameDump("s:del");
        same("XADD", "s:del", "251-0", "a", "1");
        same("XLEN", "s:del");
    }

    @Test
    void approximateTrimmingRemovesWholeNodesAsRedis() {
        for (int i = 1; i <= 300; i++) {
            xadd("s:approx", i + "-0", "payload", "q".repeat(50 + (i * 13) % 400));
        }
        same("XTRIM", "s:approx", "MAXLEN", "~", "250");
        same("XTRIM", "s:approx", "MAXLEN", "~", "100", "LIMIT", "30");
        same("XTRIM", "s:approx", "MINID", "~", "200-0");
        same("XADD", "s:approx", "MAXLEN", "~", "10", "301-0", "payload", "r".repeat(300));
        assertSameDump("s:approx");
    }

    @Test
    void nodeSettingsAreLive() {
        String[][] settings = {{"stream-node-max-entries", "5"}, {"stream-node-max-entries", "0"},
                {"stream-node-max-bytes", "200"}, {"stream-node-max-bytes", "0"}, {"stream-node-max-bytes", "1"}};
        try {
            int round = 0;
            for (String[] s : settings) {
                same("CONFIG", "SET", s[0], s[1]);
                same("CONFIG", "GET", s[0]);
                String key = "s:cfg" + round++;
                for (int i = 1; i <= 60; i++) {
                    xadd(key, i + "-0", "f", "v".repeat(i % 30));
                }
                same("XTRIM", key, "MAXLEN", "~", "20");
                assertSameDump(key);
            }
        } finally {
            same("CONFIG", "SET", "stream-node-max-entries", "100");
            same("CONFIG", "SET", "stream-node-max-bytes", "4096");
        }
    }

    @Test
    void streamsWithGroupsCopyBetweenRedisAndKevyByteForByte() {
        for (int i = 1; i <= 180; i++) {
            xadd("s:groups", i + "-0", "job", "j" + i);
        }
        same("XDEL", "s:groups", "7-0");
        same("XGROUP", "CREATE", "s:groups", "workers", "0");
        same("XGROUP", "CREATE", "s:groups", "audit", "$");
        same("XGROUP", "CREATECONSUMER", "s:groups", "workers", "idle");
        same("XREADGROUP", "GROUP", "workers", "alice", "COUNT", "20", "STREAMS", "s:groups", ">");
        same("XREADGROUP", "GROUP", "workers", "bob", "COUNT", "5", "STREAMS", "s:groups", ">");
        same("XACK", "s:groups", "workers", "1-0", "2-0");
        same("XCLAIM", "s:groups", "workers", "bob", "0", "10-0", "11-0", "JUSTID");
        same("XSETID", "s:groups", "500-0", "ENTRIESADDED", "900", "MAXDELETEDID", "400-0");
        // times (delivery, seen) differ between the servers: copy Redis's value, then compare kevy's DUMP of it
        byte[] fromRedis = dump(redis(), "s:groups");
        assertThat(restore(kevy(), "s:copy", fromRedis)).isEqualTo("+OK\r\n");
        assertThat(restore(redis(), "s:copy", fromRedis)).isEqualTo("+OK\r\n");
        assertThat(dump(kevy(), "s:copy")).as("kevy's DUMP of a RESTOREd Redis stream").isEqualTo(fromRedis);
        same("XINFO", "STREAM", "s:copy", "FULL");
        same("XINFO", "GROUPS", "s:copy");
        same("XPENDING", "s:copy", "workers"); // the extended form's idle times depend on the clock
        same("XRANGE", "s:copy", "-", "+", "COUNT", "5");
        same("XADD", "s:copy", "600-0", "job", "new");
        // and Redis reads kevy's
        byte[] fromKevy = dump(kevy(), "s:copy");
        assertThat(restore(redis(), "s:copy2", fromKevy)).isEqualTo("+OK\r\n");
        assertThat(restore(kevy(), "s:copy2", fromKevy)).isEqualTo("+OK\r\n");
        same("XINFO", "STREAM", "s:copy2", "FULL");
        // an empty stream with a group (XGROUP CREATE MKSTREAM)
        same("XGROUP", "CREATE", "s:empty", "g", "$", "MKSTREAM");
        assertSameDump("s:empty");
    }

    @Test
    void hostileStreamPayloadsAreRefusedCleanly() {
        for (int i = 1; i <= 150; i++) {
            xadd("s:h", i + "-0", "f", "v" + i, i % 2 == 0 ? "g" : "h", Integer.toString(i));
        }
        same("XGROUP", "CREATE", "s:h", "g", "0");
        same("XREADGROUP", "GROUP", "g", "c", "COUNT", "30", "STREAMS", "s:h", ">");
        same("XDEL", "s:h", "5-0");
        byte[] valid = dump(kevy(), "s:h");
        long seed = System.nanoTime();
        System.out.println("StreamDumpIT hostile seed " + seed);
        Random rnd = new Random(seed);
        int ok = 0;
        int refused = 0;
        for (int i = 0; i < 2000; i++) {
            byte[] body = Arrays.copyOf(valid, valid.length - 10);
            if (rnd.nextBoolean()) {
                for (int k = 1 + rnd.nextInt(3); k > 0; k--) {
                    body[rnd.nextInt(body.length)] = (byte) rnd.nextInt(256);
                }
            } else {
                body = Arrays.copyOf(body, rnd.nextInt(body.length + 1));
            }
            String reply = restore(kevy(), "s:hostile", DumpRestoreIT.payload(body, 10));
            assertThat(reply).isIn("+OK\r\n", "-ERR Bad data format\r\n");
            if (reply.startsWith("+")) {
                ok++;
                // whatever was accepted is a working stream
                assertThat(kevy().call("XLEN", "s:hostile")).startsWith(":");
                assertThat(kevy().call("XADD", "s:hostile", "*", "a", "b")).doesNotStartWith("-ERR Bad");
            } else {
                refused++;
            }
        }
        System.out.println("StreamDumpIT hostile: " + ok + " accepted, " + refused + " refused");
        assertThat(refused).isPositive();
        assertThat(kevy().call("PING")).isEqualTo("+PONG\r\n");
    }
}
