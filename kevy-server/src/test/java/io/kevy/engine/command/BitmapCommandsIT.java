package io.kevy.engine.command;

import static io.kevy.testing.StateDump.keyOnShard;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kevy.engine.Engine;
import io.kevy.testing.FrameRecorder;
import io.kevy.testing.OracleFixture;
import io.kevy.testing.RawClient;
import io.kevy.testing.ReplyDiff;
import io.lettuce.core.BitFieldArgs;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.api.sync.RedisCommands;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Bitmap commands (SETBIT, GETBIT, BITCOUNT, BITPOS, BITOP, BITFIELD, BITFIELD_RO) against a real Redis 7.0 (reply
 * bytes and error texts), through lettuce, and their effect frames (feed contract §7) on a 2-shard server.
 */
class BitmapCommandsIT {
    @RegisterExtension
    static final OracleFixture oracle = OracleFixture.create().recordFrames();

    /** Runs a space-separated command on both servers and asserts equal replies. */
    private static String same(String line) {
        return oracle.sameLine(line);
    }

    @Test
    void setbitAndGetbitMatchRedis() {
        same("SETBIT k 7 1");
        same("GET k");
        same("SETBIT k 7 1");
        same("SETBIT k 7 0");
        same("SETBIT k 0 1");
        same("SETBIT k 100 1");
        same("GET k");
        for (String off : List.of("0", "1", "7", "100", "101", "103", "104", "99999999", "4294967295")) {
            same("GETBIT k " + off);
        }
        same("GETBIT nokey 0");
        same("GETBIT nokey 4294967295");
        same("SETBIT n 0 0");
        same("GET n");
        same("SET i 12");
        same("SETBIT i 6 0");
        same("GET i");
        same("SETBIT i 80 1");
        same("GET i");
    }

    @Test
    void setbitAndGetbitErrorsMatchRedis() {
        for (String off : List.of("-1", "abc", "1.5", " 1", "+1", "01", "#1", "", "4294967296", "9223372036854775807",
                "9223372036854775808", "-9223372036854775808")) {
            oracle.same("SETBIT", "k", off, "1");
            oracle.same("GETBIT", "k", off);
        }
        for (String bit : List.of("2", "-1", "a", "", "1.0", "01", "9223372036854775808")) {
            oracle.same("SETBIT", "k", "0", bit);
        }
        same("SETBIT k 4294967295 x");
        same("SETBIT k x x");
        same("RPUSH l a");
        same("SETBIT l 0 1");
        same("SETBIT l x 1");
        same("SETBIT l 0 2");
        same("GETBIT l 0");
        same("GETBIT l x");
        same("SETBIT k 0");
        same("SETBIT k 0 1 1");
        same("GETBIT k");
        same("GETBIT k 0 0");
        same("EXISTS k");
    }

    @Test
    void bitcountMatchesRedis() {
        oracle.sameBytes("SET", "k", "foobar\u00ff\u0000\u0081");
        same("BITCOUNT k");
        for (String range : List.of("0 0", "1 1", "0 -1", "-1 -1", "-2 -1", "-100 100", "5 2", "-1 -5", "-5 -1",
                "100 200", "0 -100", "-9223372036854775808 9223372036854775807", "3 -3")) {
            same("BITCOUNT k " + range);
            same("BITCOUNT k " + range + " BYTE");
            same("BITCOUNT k " + range + " BIT");
        }
        for (String range : List.of("1 6", "5 30", "7 8", "0 71", "9 9", "-3 -1", "-9 -2", "13 12", "60 1000")) {
            same("BITCOUNT k " + range + " bit");
        }
        same("BITCOUNT k 0");
        same("BITCOUNT k 0 1 2 3");
        same("BITCOUNT k 0 1 foo");
        same("BITCOUNT k -1 -5 foo");
        same("BITCOUNT k a 1");
        same("BITCOUNT k 1 a");
        same("BITCOUNT k a a foo");
        same("BITCOUNT nokey");
        same("BITCOUNT nokey 0");
        same("BITCOUNT nokey 0 1 foo");
        oracle.same("SET", "empty", "");
        same("BITCOUNT empty");
        same("BITCOUNT empty 0 0");
        same("BITCOUNT empty 0 0 BIT");
        same("RPUSH l a");
        same("BITCOUNT l");
        same("BITCOUNT l 0");
        same("BITCOUNT");
    }

    @Test
    void bitposMatchesRedis() {
        oracle.sameBytes("SET", "k", "\u0000\u0000\u00ff\u00f0\u0000\u0001\u00ff");
        oracle.sameBytes("SET", "ones", "\u00ff\u00ff\u00ff");
        oracle.sameBytes("SET", "zeros", "\u0000\u0000\u0000");
        same("SET empty x");
        oracle.same("SET", "empty", "");
        for (String key : List.of("k", "ones", "zeros", "empty", "nokey")) {
            for (String bit : List.of("0", "1")) {
                same("BITPOS " + key + " " + bit);
                for (String start : List.of("0", "1", "2", "-1", "-3", "100", "-100")) {
                    same("BITPOS " + key + " " + bit + " " + start);
                }
                for (String range : List.of("0 -1", "1 2", "2 2", "-2 -1", "0 100", "5 3", "-100 -50", "3 3")) {
                    same("BITPOS " + key + " " + bit + " " + range);
                    same("BITPOS " + key + " " + bit + " " + range + " BYTE");
                }
                for (String range : List.of("0 -1", "3 20", "16 23", "17 22", "20 31", "28 40", "0 7", "7 8",
                        "-8 -1", "-3 -2", "50 55", "9 9", "23 24")) {
                    same("BITPOS " + key + " " + bit + " " + range + " BIT");
                }
            }
        }
        same("BITPOS k 2");
        same("BITPOS k -1");
        same("BITPOS k x");
        same("BITPOS nokey 2");
        same("BITPOS k 1 x");
        same("BITPOS k 1 0 x");
        same("BITPOS k 1 0 1 BITS");
        same("BITPOS k 1 0 1 BIT 1");
        same("BITPOS nokey 1 0 1 BIT 1");
        same("BITPOS nokey 0 x");
        same("RPUSH l a");
        same("BITPOS l 1");
        same("BITPOS l 2");
        same("BITPOS");
        same("BITPOS k");
    }

    @Test
    void bitopMatchesRedis() {
        oracle.sameBytes("SET", "a", "\u00ff\u000f\u00aa");
        oracle.sameBytes("SET", "b", "\u00f0\u00ff");
        same("SET c x");
        for (String op : List.of("AND", "OR", "XOR", "and", "Or")) {
            same("BITOP " + op + " d a b c");
            same("GET d");
            same("BITOP " + op + " d a nokey");
            same("GET d");
            same("BITOP " + op + " d nokey");
            same("EXISTS d");
        }
        same("BITOP NOT d a");
        same("GET d");
        same("BITOP NOT d a b");
        same("BITOP NOT d");
        same("BITOP NOT d nokey");
        same("BITOP NAND d a b");
        same("BITOP AND d");
        same("RPUSH l x");
        same("BITOP AND d a l");
        same("BITOP NOT d l");
        same("BITOP AND l a b");
        same("GET l");
        same("BITOP AND a a b");
        same("GET a");
        oracle.same("SET", "e", "");
        same("BITOP OR d e");
        same("EXISTS d");
        same("BITOP XOR d e a");
        same("GET d");
    }

    @Test
    void bitfieldMatchesRedis() {
        same("BITFIELD k SET u8 0 255 GET u8 0 GET i8 0 GET u4 4 GET i4 4");
        same("GET k");
        same("BITFIELD k INCRBY u2 100 1 OVERFLOW SAT INCRBY u2 102 1");
        same("BITFIELD k INCRBY i5 100 1 GET u4 0");
        same("BITFIELD k GET i64 0 GET u63 1 GET i1 7 GET u1 7");
        same("BITFIELD k SET i64 0 -9223372036854775808 GET i64 0 INCRBY i64 0 -1 GET u63 0");
        same("BITFIELD k OVERFLOW SAT INCRBY i64 0 -1 INCRBY i64 0 9223372036854775807 INCRBY i64 0 1");
        same("BITFIELD k OVERFLOW FAIL INCRBY i64 0 1 INCRBY i64 0 -1 INCRBY u63 0 1");
        same("BITFIELD k SET u8 #1 200 SET u8 #2 201 GET u8 #1 GET u16 #1 GET i16 #1");
        same("BITFIELD k SET u8 #0 1 SET u8 #10 255");
        same("GET k");
        same("BITFIELD k INCRBY u8 #10 1 OVERFLOW SAT INCRBY u8 #10 1 OVERFLOW FAIL INCRBY u8 #10 1");
        same("BITFIELD k INCRBY u8 #10 -300 OVERFLOW SAT INCRBY u8 #10 -300 OVERFLOW WRAP INCRBY u8 #10 -300");
        same("BITFIELD k INCRBY i8 #10 -300 OVERFLOW SAT INCRBY i8 #10 -300 OVERFLOW FAIL INCRBY i8 #10 -300");
        same("BITFIELD k SET u8 0 -1 OVERFLOW SAT SET u8 0 -1 SET u8 0 256 OVERFLOW FAIL SET u8 0 256 GET u8 0");
        same("BITFIELD k SET i8 0 -9223372036854775808 OVERFLOW SAT SET i8 0 -9223372036854775808 GET i8 0");
        same("BITFIELD k OVERFLOW SAT SET i8 0 -129 GET i8 0 SET i8 0 128 GET i8 0");
        same("BITFIELD k OVERFLOW WRAP SET i3 1 5 GET i3 1 SET u3 1 9 GET u3 1 INCRBY i3 1 100 INCRBY u3 1 -100");
        same("BITFIELD k OVERFLOW sat INCRBY u63 0 9223372036854775807 INCRBY u63 0 1 GET u63 0");
        same("BITFIELD k OVERFLOW wrap INCRBY u63 0 9223372036854775807 INCRBY u63 0 -9223372036854775808");
        same("BITFIELD k GET u8 99999999 GET i8 4294967288");
        same("GET k");
        same("BITFIELD k");
        same("BITFIELD nokey");
        same("EXISTS nokey");
        same("BITFIELD nokey GET u8 0 GET i64 100");
        same("EXISTS nokey");
        same("BITFIELD_RO k GET u8 0 GET i8 #1");
        same("BITFIELD_RO nokey GET u8 0");
        same("BITFIELD_RO k");
    }

    @Test
    void bitfieldErrorsMatchRedis() {
        for (String type : List.of("u64", "i65", "u0", "i0", "x8", "U8", "I8", "u", "i", "u-1", "u08", "u 8", "8", "",
                "u1.0", "i9223372036854775808")) {
            oracle.same("BITFIELD", "k", "GET", type, "0");
            oracle.same("BITFIELD", "k", "SET", type, "0", "1");
        }
        oracle.sameBytes("BITFIELD", "k", "GET", "u8\u0000x", "0");
        for (String off : List.of("-1", "x", "#", "#-1", "#x", "4294967296", "#536870912", "##1",
                "#1073741823", "#4611686018427387904")) {
            oracle.same("BITFIELD", "k", "GET", "u8", off);
            oracle.same("BITFIELD", "k", "SET", "u8", off, "1");
        }
        same("BITFIELD k GET u8 4294967295");
        same("BITFIELD k SET u8 0 x");
        same("BITFIELD k INCRBY u8 0 1.5");
        same("BITFIELD k SET u8 0 9223372036854775808");
        same("BITFIELD k OVERFLOW");
        same("BITFIELD k OVERFLOW FOO GET u8 0");
        same("BITFIELD k GET u8 0 OVERFLOW FOO");
        same("BITFIELD k GET u8");
        same("BITFIELD k SET u8 0");
        same("BITFIELD k INCRBY u8 0");
        same("BITFIELD k FOO u8 0");
        same("BITFIELD k GET u8 0 SET u64 0 1");
        same("BITFIELD k SET u8 0 1 GET x 0");
        same("EXISTS k");
        same("BITFIELD_RO k SET u8 0 1");
        same("BITFIELD_RO k INCRBY u8 0 1");
        same("BITFIELD_RO k GET u8 0 OVERFLOW SAT");
        same("BITFIELD_RO k SET u8 0 1 GET u65 0");
        same("BITFIELD_RO k SET u8 0 x");
        same("EXISTS k");
        same("RPUSH l a");
        same("BITFIELD l GET u8 0");
        same("BITFIELD l SET u8 0 1");
        same("BITFIELD l SET u8 x 1");
        same("BITFIELD_RO l GET u8 0");
        same("BITFIELD_RO l SET u8 0 1");
        same("BITFIELD_RO l");
        same("BITFIELD l");
        same("BITFIELD");
        same("BITFIELD_RO");
    }

    @Test
    void bitfieldFailStillCreatesTheKeyAsRedisDoes() {
        same("BITFIELD k OVERFLOW FAIL SET u2 0 8");
        same("EXISTS k");
        same("GET k");
        assertThat(oracle.frames().take()).containsExactly("SET k \u0000 KEEPTTL");
    }

    @Test
    void setbitFrames() {
        RawClient raw = oracle.kevy().raw();
        raw.call("SETBIT", "k", "1", "1");
        assertThat(oracle.frames().take()).containsExactly("SET k @ KEEPTTL");
        raw.call("SETBIT", "k", "1", "1");
        assertThat(oracle.frames().take()).as("same bit: no change, no frame").isEmpty();
        raw.call("SETBIT", "k", "7", "0");
        assertThat(oracle.frames().take()).as("clearing a clear bit").isEmpty();
        raw.call("SETBIT", "k", "7", "1");
        assertThat(oracle.frames().take()).containsExactly("SET k A KEEPTTL");
        raw.call("SETBIT", "k", "17", "0");
        assertThat(oracle.frames().take()).as("growing with a 0 bit changes the length")
                .containsExactly("SET k A\u0000\u0000 KEEPTTL");
        raw.call("SETBIT", "z", "0", "0");
        assertThat(oracle.frames().take()).as("a new key, even all zeros").containsExactly("SET z \u0000 KEEPTTL");
        raw.call("SETBIT", "k", "-1", "1");
        raw.call("SETBIT", "k", "0", "2");
        raw.call("RPUSH", "l", "a");
        oracle.frames().take();
        raw.call("SETBIT", "l", "0", "1");
        raw.call("GETBIT", "k", "1");
        assertThat(oracle.frames().take()).as("errors and reads").isEmpty();
    }

    @Test
    void bitEditsKeepTheTtlAndBitopDropsIt() {
        same("SET k x EX 1000");
        oracle.frames().take();
        same("SETBIT k 100 1");
        same("TTL k");
        same("SETBIT k 100 1");
        same("TTL k");
        same("BITFIELD k INCRBY u8 #3 7 GET u8 0");
        same("TTL k");
        same("BITFIELD k OVERFLOW FAIL INCRBY u8 #3 1000");
        same("TTL k");
        assertThat(oracle.frames().take()).as("SETBIT and the first BITFIELD changed bytes").hasSize(2)
                .allMatch(f -> f.startsWith("SET k x") && f.endsWith(" KEEPTTL"));
        same("BITOP NOT k k");
        same("TTL k");
        same("SET d x EX 1000");
        same("BITOP AND d nokey");
        same("EXISTS d");
    }

    @Test
    void bitWritesLeaveRawStringsAsRedis() {
        same("SETBIT a 1 1");
        same("OBJECT ENCODING a");
        same("SET n 12");
        same("SETBIT n 1 0");
        same("GET n");
        same("OBJECT ENCODING n");
        same("SET n 12");
        same("GETBIT n 1");
        same("BITFIELD n GET u8 0");
        same("BITFIELD_RO n GET u8 0");
        same("BITCOUNT n");
        same("OBJECT ENCODING n");
        same("BITFIELD n OVERFLOW FAIL SET u8 0 999");
        same("OBJECT ENCODING n");
        same("SET n 12");
        same("BITFIELD n SET u8 0 49");
        same("OBJECT ENCODING n");
        same("SET m 12");
        same("BITOP OR c m");
        same("OBJECT ENCODING c");
        same("BITFIELD b SET u8 0 49");
        same("OBJECT ENCODING b");
    }

    @Test
    void bitfieldFrames() {
        RawClient raw = oracle.kevy().raw();
        raw.call("BITFIELD", "k", "GET", "u8", "0");
        assertThat(oracle.frames().take()).as("GET only: a read").isEmpty();
        raw.call("BITFIELD", "k", "SET", "u8", "0", "65", "INCRBY", "u8", "8", "66");
        assertThat(oracle.frames().take()).containsExactly("SET k AB KEEPTTL");
        raw.call("BITFIELD", "k", "SET", "u8", "0", "65");
        assertThat(oracle.frames().take()).as("same bytes").isEmpty();
        raw.call("BITFIELD", "k", "OVERFLOW", "FAIL", "INCRBY", "u8", "0", "1000");
        assertThat(oracle.frames().take()).as("every write failed: nothing changed").isEmpty();
        raw.call("BITFIELD", "k", "OVERFLOW", "FAIL", "INCRBY", "u8", "16", "1000");
        assertThat(oracle.frames().take()).as("failed, but the string grew").containsExactly("SET k AB\u0000 KEEPTTL");
        raw.call("BITFIELD", "k", "INCRBY", "u8", "#0", "1", "INCRBY", "u8", "#0", "-1");
        assertThat(oracle.frames().take()).as("edits that cancel out").isEmpty();
        raw.call("BITFIELD", "k", "SET", "u8", "0", "1", "SET", "u65", "0", "1");
        raw.call("BITFIELD_RO", "k", "SET", "u8", "0", "1");
        assertThat(oracle.frames().take()).as("errors").isEmpty();
    }

    /**
     * Which bit writes invalidate a WATCH, as Redis 7.0 decides it: a field whose value changed, even if a later
     * operation restores the bytes; not a write of the same value, not a FAIL overflow. WATCH/MULTI/EXEC on both
     * servers must agree.
     */
    @Test
    void bitWritesInvalidateWatchersAsRedis() {
        String[][] writes = {
            {"BITFIELD", "q", "SET", "u8", "0", "0"},
            {"BITFIELD", "q", "OVERFLOW", "FAIL", "SET", "u2", "0", "8"},
            {"BITFIELD", "q", "SET", "u8", "0", "1"},
            {"SETBIT", "q", "7", "1"},
            {"SETBIT", "q", "7", "0"},
            {"BITFIELD", "q", "INCRBY", "u8", "0", "1", "INCRBY", "u8", "0", "-1"},
            {"BITFIELD", "q", "GET", "u8", "0"},
        };
        try (RawClient rw = oracle.redis().raw(); RawClient kw = oracle.kevy().raw();
             ReplyDiff watcher = new ReplyDiff(kw, rw)) {
            oracle.same("SET", "q", "\u0000");
            for (String[] write : writes) {
                watcher.same("WATCH", "q");
                oracle.same(write);
                watcher.same("MULTI");
                watcher.same("EXEC");
            }
        }
        assertThat(oracle.same("GET", "q")).isEqualTo("$1\r\n\u0000\r\n");
    }

    @Test
    void bitopFramesAcrossShards() {
        Engine e = oracle.engine();
        String a = keyOnShard(e, "a", 0);
        String b = keyOnShard(e, "b", 1);
        String dst = keyOnShard(e, "d", 1);
        RawClient raw = oracle.kevy().raw();
        raw.call("SET", a, "ab");
        raw.call("SET", b, "c");
        oracle.frames().take();
        assertThat(raw.call("BITOP", "OR", dst, a, b)).isEqualTo(":2\r\n");
        List<FrameRecorder.Frame> fs = oracle.frames().takeFrames();
        assertThat(fs).extracting(FrameRecorder.Frame::text).containsExactly("SET " + dst + " cb");
        assertThat(fs).extracting(FrameRecorder.Frame::shard).containsExactly(1);
        assertThat(raw.call("BITOP", "AND", dst, "nokey", "nokey2")).isEqualTo(":0\r\n");
        assertThat(oracle.frames().take()).as("empty result deletes dst").containsExactly("DEL " + dst);
        assertThat(raw.call("EXISTS", dst)).isEqualTo(":0\r\n");
        assertThat(raw.call("BITOP", "AND", dst, "nokey")).isEqualTo(":0\r\n");
        assertThat(oracle.frames().take()).as("empty result, dst absent: no-op").isEmpty();
        raw.call("BITOP", "NOT", dst, a, b);
        raw.call("RPUSH", "l", "x");
        oracle.frames().take();
        raw.call("BITOP", "AND", dst, a, "l");
        assertThat(oracle.frames().take()).as("errors").isEmpty();
        assertThat(raw.call("BITOP", "XOR", "l", a, a)).isEqualTo(":2\r\n");
        assertThat(oracle.frames().take()).as("dst of another type is replaced").containsExactly("SET l \u0000\u0000");
    }

    @Test
    void flagsAsRedis() {
        CommandTable t = oracle.commands();
        assertThat(t.lookup("setbit").flags()).contains(CommandFlag.WRITE, CommandFlag.DENYOOM);
        assertThat(t.lookup("getbit").flags()).contains(CommandFlag.READONLY, CommandFlag.FAST);
        assertThat(t.lookup("bitcount").flags()).containsOnly(CommandFlag.READONLY);
        assertThat(t.lookup("bitpos").flags()).containsOnly(CommandFlag.READONLY);
        assertThat(t.lookup("bitop").flags()).containsOnly(CommandFlag.WRITE, CommandFlag.DENYOOM);
        assertThat(t.lookup("bitfield").flags()).containsOnly(CommandFlag.WRITE, CommandFlag.DENYOOM);
        assertThat(t.lookup("bitfield_ro").flags()).containsOnly(CommandFlag.READONLY, CommandFlag.FAST);
        assertThat(t.lookup("bitop").keyPositions(new byte[][] {b("bitop"), b("and"), b("d"), b("x"), b("y")}))
                .containsExactly(2, 3, 4);
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void lettuceClient() {
        RedisCommands<String, String> r = oracle.kevy().lettuce();
        assertThat(r.setbit("k", 3, 1)).isZero();
        assertThat(r.getbit("k", 3)).isEqualTo(1);
        assertThat(r.bitcount("k")).isEqualTo(1);
        assertThat(r.bitpos("k", true)).isEqualTo(3);
        assertThat(r.bitpos("k", false, 0, 0)).isZero();
        assertThat(r.bitopOr("d", "k", "nokey")).isEqualTo(1);
        assertThat(r.get("d")).isEqualTo("\u0010");
        assertThat(r.bitfield("k", BitFieldArgs.Builder.set(BitFieldArgs.unsigned(8), 0, 200)
                .incrBy(BitFieldArgs.signed(8), 0, 100).get(BitFieldArgs.unsigned(4), 0)))
                .containsExactly(16L, 44L, 2L);
        assertThat(r.bitfield("k", BitFieldArgs.Builder.overflow(BitFieldArgs.OverflowType.FAIL)
                .incrBy(BitFieldArgs.signed(8), 0, 100))).containsExactly((Long) null);
        r.rpush("l", "a");
        assertThatThrownBy(() -> r.setbit("l", 0, 1)).isInstanceOf(RedisCommandExecutionException.class)
                .hasMessageStartingWith("WRONGTYPE");
        assertThatThrownBy(() -> r.setbit("k", -1, 1)).isInstanceOf(RedisCommandExecutionException.class)
                .hasMessage("ERR bit offset is not an integer or out of range");
    }
}
