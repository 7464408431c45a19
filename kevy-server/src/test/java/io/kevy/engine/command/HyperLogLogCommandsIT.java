package io.kevy.engine.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.testing.OracleFixture;
import io.kevy.testing.RawClient;
import io.kevy.testing.ReplyDiff;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * HyperLogLog commands (PFADD, PFCOUNT, PFMERGE, PFDEBUG, PFSELFTEST) against a real Redis 7.0: the replies and,
 * through GET, the stored bytes (sparse, dense, promotion, merges, the cached cardinality), values copied from
 * Redis, hostile values, and the frames (feed contract §7) on a 2-shard server.
 */
class HyperLogLogCommandsIT {
    @RegisterExtension
    static final OracleFixture oracle = OracleFixture.create().recordFrames();

    private static String same(String line) {
        return oracle.sameLine(line);
    }

    /** PFADD of {@code n} elements {@code prefix0..} in batches of {@code batch}, comparing every reply and GET. */
    private static void addCompared(String key, String prefix, int n, int batch) {
        for (int i = 0; i < n; i += batch) {
            List<String> cmd = new ArrayList<>(List.of("PFADD", key));
            for (int j = i; j < Math.min(n, i + batch); j++) {
                cmd.add(prefix + j);
            }
            oracle.same(cmd.toArray(new String[0]));
            oracle.same("GET", key);
        }
    }

    @Test
    void sparseValuesMatchRedisByteForByte() {
        same("PFADD h a b c");
        same("GET h");
        same("PFADD h a");
        same("PFADD h");
        same("PFADD h d e f g");
        same("GET h");
        same("PFDEBUG ENCODING h");
        same("PFDEBUG DECODE h");
        same("OBJECT ENCODING h");
        same("PFCOUNT h");
        same("GET h"); // the cached cardinality is in the header now
        same("PFCOUNT h");
        same("PFADD h g");
        same("GET h");
        same("PFADD h h");
        same("GET h"); // the cache is stale again: its top bit is set, the old count kept
        same("PFCOUNT h");
        same("GET h");
        same("PFADD new");
        same("GET new");
        same("PFCOUNT new");
        same("PFCOUNT missing");
        same("EXISTS missing");
        same("STRLEN h");
    }

    @Test
    void manyAddsGrowSparseThenPromoteToDenseAsRedis() {
        addCompared("h", "el:", 3000, 1);
        same("PFDEBUG ENCODING h");
        addCompared("h", "more:", 4000, 97);
        same("PFDEBUG ENCODING h");
        same("PFCOUNT h");
        same("GET h");
        addCompared("h", "el:", 200, 50); // nothing new: 0, bytes unchanged
        same("OBJECT ENCODING h");
    }

    @Test
    void bigBatchesAndRandomElementsMatchRedis() {
        long seed = new Random().nextLong();
        System.out.println("HyperLogLogCommandsIT seed=" + seed);
        Random rnd = new Random(seed);
        for (int round = 0; round < 40; round++) {
            String key = "r" + rnd.nextInt(4);
            List<String> cmd = new ArrayList<>(List.of("PFADD", key));
            int n = rnd.nextInt(rnd.nextBoolean() ? 5 : 400);
            for (int j = 0; j < n; j++) {
                cmd.add(Long.toString(rnd.nextLong(), 36));
            }
            oracle.same(cmd.toArray(new String[0]));
            oracle.same("GET", key);
            if (rnd.nextInt(3) == 0) {
                oracle.same("PFCOUNT", key);
            }
        }
        oracle.same("PFCOUNT", "r0", "r1", "r2", "r3", "none");
    }

    @Test
    void hllSparseMaxBytesDecidesPromotionAsInRedis() {
        try {
            same("CONFIG SET hll-sparse-max-bytes 100");
            same("CONFIG GET hll-sparse-max-bytes");
            addCompared("h", "x", 60, 1);
            same("PFDEBUG ENCODING h");
            same("CONFIG SET hll-sparse-max-bytes 1kb");
            same("CONFIG GET hll-sparse-max-bytes");
            addCompared("g", "x", 600, 7);
            same("PFDEBUG ENCODING g");
            same("CONFIG SET hll-sparse-max-bytes -1");
        } finally {
            same("CONFIG SET hll-sparse-max-bytes 3000");
        }
    }

    @Test
    void mergesAndMultiKeyCountsMatchRedis() {
        same("PFADD {m}a a b c d");
        addCompared("{m}b", "b", 150, 10);
        addCompared("{m}d", "d", 5000, 500);
        same("PFDEBUG ENCODING {m}d");
        same("PFCOUNT {m}a {m}b");
        same("PFCOUNT {m}a {m}b {m}none");
        same("PFCOUNT {m}a {m}d {m}b");
        same("GET {m}a"); // multi-key PFCOUNT caches nothing
        same("PFMERGE {m}s {m}a {m}b");
        same("GET {m}s");
        same("PFCOUNT {m}s");
        same("PFMERGE {m}s {m}none");
        same("GET {m}s");
        same("PFADD {m}e e1 e2 e3");
        same("PFMERGE {m}e {m}b"); // an existing sparse destination edited in place
        same("GET {m}e");
        same("PFMERGE {m}e {m}d"); // a dense source turns the destination dense
        same("GET {m}e");
        same("PFDEBUG ENCODING {m}e");
        same("PFMERGE {m}only");
        same("GET {m}only");
        same("PFMERGE a b c"); // keys of several shards in kevy
        same("GET a");
        same("SET {m}ttl x");
        same("DEL {m}ttl");
        same("PFADD {m}ttl z");
        same("EXPIRE {m}ttl 1000");
        same("PFMERGE {m}ttl {m}a");
        same("TTL {m}ttl");
        same("PFADD {m}ttl zz");
        same("TTL {m}ttl");
        same("PFCOUNT {m}ttl");
        same("TTL {m}ttl");
    }

    @Test
    void aValueMadeByRedisWorksInKevy() {
        RawClient redis = oracle.diff().redis();
        RawClient kevy = oracle.diff().kevy();
        redis.call("PFADD", "sparse", "a", "b", "c");
        redis.call("PFCOUNT", "sparse"); // with a valid cached cardinality
        List<String> cmd = new ArrayList<>(List.of("PFADD", "dense"));
        for (int i = 0; i < 5000; i++) {
            cmd.add("d" + i);
        }
        redis.call(cmd.toArray(new String[0]));
        for (String key : List.of("sparse", "dense")) {
            byte[] value = bulk(redis.send(RawClient.encode(bytes("GET"), bytes(key))).readReplyBytes());
            assertThat(kevy.send(RawClient.encode(bytes("SET"), bytes(key), value)).readReply()).isEqualTo("+OK\r\n");
            oracle.same("GET", key);
            oracle.same("PFCOUNT", key);
            oracle.same("PFADD", key, "new1", "new2", "a", "d7");
            oracle.same("GET", key);
            oracle.same("PFCOUNT", key);
            oracle.same("PFDEBUG", "ENCODING", key);
        }
        oracle.same("PFMERGE", "both", "sparse", "dense");
        oracle.same("GET", "both");
        oracle.same("PFCOUNT", "sparse", "dense");
    }

    @Test
    void notAHyperLogLogAndCorruptedValuesAnswerAsRedis() {
        ReplyDiff d = oracle.diff();
        same("SET s hello");
        same("PFADD s a");
        same("PFCOUNT s");
        same("PFCOUNT s x");
        same("PFMERGE m s");
        same("PFMERGE s");
        same("PFDEBUG GETREG s");
        same("RPUSH l a");
        same("PFADD l a");
        same("PFCOUNT l");
        same("PFMERGE l");
        same("PFMERGE m l");
        same("EXISTS m");
        d.sameBytes("SET", "t", "HYLL\u0001\u0000\u0000"); // a truncated header
        same("PFADD t a");
        same("PFCOUNT t");
        d.sameBytes("SET", "e", "HYLL\u0002\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000"
                + "\u007f\u00ff"); // an unknown encoding
        same("PFADD e a");
        d.sameBytes("SET", "dshort", "HYLL\u0000" + "\u0000".repeat(11) + "\u0000".repeat(100)); // dense, wrong size
        same("PFADD dshort a");
        same("PFCOUNT dshort");
        same("SET n 12345");
        same("PFADD n a");
        String header = "HYLL\u0001" + "\u0000".repeat(11);
        // the registers do not add up to 16384: 100 zeros only; PFADD of an element past them fails
        d.sameBytes("SET", "few", header + "\u0040\u0063");
        same("PFADD few " + elementAtOrAfter(100));
        same("GET few");
        same("PFCOUNT few");
        same("PFCOUNT few s2");
        same("PFMERGE m2 few");
        same("EXISTS m2");
        same("PFDEBUG TODENSE few");
        same("PFDEBUG GETREG few");
        same("PFDEBUG DECODE few");
        // a run that overflows the register count: XZERO 16384 then VAL 1 x4
        d.sameBytes("SET", "over", header + "\u007f\u00ff\u0083");
        same("PFCOUNT over");
        same("PFMERGE m3 over");
        same("PFDEBUG TODENSE over");
        same("PFADD over a b c"); // Redis finds the registers before the overflow and edits them
        same("GET over");
        d.sameBytes("SET", "val", header + "\u007f\u00fb\u0083\u0083"); // 16380 zeros, VAL x4, VAL x4: 16388
        same("PFCOUNT val");
        same("PFDEBUG TODENSE val");
        // an XZERO cut by the end of the string: its missing byte reads as 0 (Redis reads the string's
        // terminator). After an edit Redis leaves a byte of its own past the string's end, which its next reads
        // see and a GET does not show: kevy stores the string only, so the opcodes are compared before the edit
        d.sameBytes("SET", "cut", header + "\u007f");
        same("PFDEBUG DECODE cut");
        same("PFADD cut a");
        same("PFCOUNT cut");
        String stale = "HYLL\u0001" + "\u0000".repeat(10) + "\u0080"; // a cached cardinality marked stale
        for (String body : List.of("\u0040\u0063", "\u007f\u00ff\u0083", "\u007f\u00fb\u0083\u0083",
                "\u0083\u007f\u00ff", "\u007f\u00ff\u0000", "")) {
            d.sameBytes("SET", "st", stale + body);
            same("PFCOUNT st"); // the count reads every opcode
            same("GET st");
        }
        d.sameBytes("SET", "empty", header); // no opcodes at all
        same("PFADD empty a");
        same("PFCOUNT empty");
        same("PFMERGE m4 empty");
    }

    /**
     * Random sparse bodies (valid, short of or past 16384 registers, cut in the middle of an XZERO), each stored
     * fresh and hit by one command: the reply and the stored bytes must be Redis's.
     */
    @Test
    void randomSparseBodiesAnswerAsRedis() {
        long seed = new Random().nextLong();
        System.out.println("HyperLogLogCommandsIT random bodies seed=" + seed);
        Random rnd = new Random(seed);
        ReplyDiff d = oracle.diff();
        for (int round = 0; round < 300; round++) {
            String body = randomBody(rnd);
            String stale = rnd.nextBoolean() ? "\u0080" : "\u0000";
            d.sameBytes("SET", "b", "HYLL\u0001" + "\u0000".repeat(10) + stale + body);
            String before = d.kevy().call("GET", "b");
            switch (rnd.nextInt(6)) {
                case 0, 1 -> {
                    List<String> cmd = new ArrayList<>(List.of("PFADD", "b"));
                    for (int i = rnd.nextInt(4); i >= 0; i--) {
                        cmd.add("e" + rnd.nextInt(100_000));
                    }
                    if (oracle.same(cmd.toArray(new String[0])).startsWith("-")) {
                        // Redis keeps what the elements before the failing one changed; kevy changes nothing
                        assertThat(d.kevy().call("GET", "b")).isEqualTo(before);
                        continue;
                    }
                }
                case 2 -> same("PFCOUNT b");
                case 3 -> same("PFMERGE b2 b");
                case 4 -> same("PFDEBUG TODENSE b");
                default -> same("PFDEBUG DECODE b");
            }
            String got = same("GET b");
            assertThat(got).as("seed %d round %d", seed, round).startsWith("$");
            same("DEL b2");
        }
    }

    /** Opcodes covering about 16384 registers; sometimes fewer or more, sometimes cut by the end. */
    private static String randomBody(Random rnd) {
        StringBuilder sb = new StringBuilder();
        int target = switch (rnd.nextInt(5)) {
            case 0 -> 16384 - 1 - rnd.nextInt(200);
            case 1 -> 16384 + 1 + rnd.nextInt(200);
            default -> 16384;
        };
        int covered = 0;
        while (covered < target) {
            int left = target - covered;
            int kind = rnd.nextInt(3);
            if (kind == 0) {
                int n = 1 + rnd.nextInt(Math.min(left, 4));
                sb.append((char) (0x80 | (rnd.nextInt(32) << 2) | (n - 1)));
                covered += n;
            } else if (kind == 1) {
                int n = 1 + rnd.nextInt(Math.min(left, 64));
                sb.append((char) (n - 1));
                covered += n;
            } else {
                int n = 1 + rnd.nextInt(Math.min(left, rnd.nextBoolean() ? 300 : 16384));
                sb.append((char) (0x40 | ((n - 1) >>> 8))).append((char) ((n - 1) & 0xff));
                covered += n;
            }
        }
        if (rnd.nextInt(10) == 0 && sb.length() > 0) {
            sb.setLength(sb.length() - 1); // cut: maybe in the middle of an XZERO
        }
        return sb.toString();
    }

    @Test
    void aFailedPfaddChangesNothing() {
        String header = "HYLL\u0001" + "\u0000".repeat(11);
        oracle.diff().sameBytes("SET", "few", header + "\u0040\u0063");
        String before = oracle.same("GET", "few");
        oracle.frames().take();
        // the first element's register is inside the 100 covered ones, the second past them: Redis would keep
        // the first edit (unpropagated); kevy fails the whole command
        assertThat(oracle.kevy().raw().call("PFADD", "few", elementBelow(100), elementAtOrAfter(100)))
                .isEqualTo("-INVALIDOBJ Corrupted HLL object detected\r\n");
        assertThat(oracle.kevy().raw().call("GET", "few")).isEqualTo(before);
        assertThat(oracle.frames().take()).isEmpty();
    }

    @Test
    void pfdebugAndPfselftestMatchRedis() {
        same("PFDEBUG GETREG nokey");
        same("PFADD h a b c");
        same("PFDEBUG DECODE h");
        same("PFDEBUG ENCODING h");
        same("PFDEBUG GETREG h"); // turns it dense
        same("GET h");
        same("PFDEBUG DECODE h");
        same("PFDEBUG TODENSE h");
        same("PFADD g a");
        same("PFDEBUG TODENSE g");
        same("GET g");
        same("PFDEBUG NOSUCH h");
        same("PFDEBUG nosuch nokey");
        same("PFDEBUG GETREG");
        same("PFDEBUG GETREG h extra");
        same("PFSELFTEST");
        same("PFSELFTEST x");
    }

    @Test
    void framesCarryTheResultingBytes() {
        oracle.kevy().raw().call("PFADD", "h", "a", "b");
        String value = getText("h");
        assertThat(oracle.frames().take()).containsExactly("SET h " + value + " KEEPTTL");
        oracle.kevy().raw().call("PFADD", "h", "a");
        assertThat(oracle.frames().take()).as("a PFADD that changes no register").isEmpty();
        oracle.kevy().raw().call("PFCOUNT", "h");
        assertThat(oracle.frames().take()).as("PFCOUNT caching the cardinality")
                .containsExactly("SET h " + getText("h") + " KEEPTTL");
        oracle.kevy().raw().call("PFCOUNT", "h");
        assertThat(oracle.frames().take()).as("PFCOUNT with a valid cache").isEmpty();
        oracle.kevy().raw().call("PFCOUNT", "h", "other");
        assertThat(oracle.frames().take()).as("PFCOUNT of several keys").isEmpty();
        oracle.kevy().raw().call("PFMERGE", "{h}x", "{h}y");
        assertThat(oracle.frames().take()).containsExactly("SET {h}x " + getText("{h}x") + " KEEPTTL");
        oracle.kevy().raw().call("PFDEBUG", "TODENSE", "h");
        assertThat(oracle.frames().take()).containsExactly("SET h " + getText("h") + " KEEPTTL");
        oracle.kevy().raw().call("PFDEBUG", "TODENSE", "h");
        oracle.kevy().raw().call("PFDEBUG", "ENCODING", "h");
        assertThat(oracle.frames().take()).isEmpty();
    }

    private static String getText(String key) {
        return new String(bulk(oracle.kevy().raw().send(RawClient.encode(bytes("GET"), bytes(key)))
                .readReplyBytes()), StandardCharsets.ISO_8859_1);
    }

    /** The payload of a bulk reply. */
    private static byte[] bulk(byte[] reply) {
        int crlf = 0;
        while (reply[crlf] != '\r') {
            crlf++;
        }
        int len = Integer.parseInt(new String(reply, 1, crlf - 1, StandardCharsets.US_ASCII));
        byte[] out = new byte[len];
        System.arraycopy(reply, crlf + 2, out, 0, len);
        return out;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** An element whose register (the low 14 bits of its hash) is at least {@code min}. */
    private static String elementAtOrAfter(int min) {
        for (int i = 0; ; i++) {
            if (registerOf("x" + i) >= min) {
                return "x" + i;
            }
        }
    }

    private static String elementBelow(int max) {
        for (int i = 0; ; i++) {
            if (registerOf("y" + i) < max) {
                return "y" + i;
            }
        }
    }

    private static int registerOf(String element) {
        byte[] b = bytes(element);
        return (int) (io.kevy.engine.struct.MurmurHash64A.hash(b, 0, b.length, 0xadc83b19) & 16383);
    }
}
