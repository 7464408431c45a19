package io.kevy.engine.command;

import static io.kevy.testing.StateDump.keyOnShard;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kevy.engine.Engine;
import io.kevy.testing.FrameRecorder;
import io.kevy.testing.OracleFixture;
import io.kevy.testing.RawClient;
import io.kevy.testing.StateDump;
import io.lettuce.core.LMPopArgs;
import io.lettuce.core.LMoveArgs;
import io.lettuce.core.LPosArgs;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.api.sync.RedisCommands;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * List commands against a real Redis 7.0 (reply bytes and error texts), through lettuce, and their effect
 * frames (feed contract §7) on a 2-shard server.
 */
class ListCommandsIT {
    @RegisterExtension
    static final OracleFixture oracle = OracleFixture.create().recordFrames();

    /** Runs a space-separated command on both servers and asserts equal replies. */
    private static String same(String line) {
        return oracle.sameLine(line);
    }

    @Test
    void pushesAndPopsMatchRedis() {
        same("LPUSH l a b c");
        same("RPUSH l d e");
        same("LRANGE l 0 -1");
        same("LPUSHX nokey a");
        same("RPUSHX nokey a");
        same("LPUSHX l x y");
        same("RPUSHX l z");
        same("LRANGE l 0 -1");
        same("LPOP l");
        same("RPOP l");
        same("LPOP l 2");
        same("RPOP l 2");
        same("LPOP l 0");
        same("RPOP l 0");
        same("LLEN l");
        same("LPOP l 100");
        same("EXISTS l");
        same("LPOP l");
        same("LPOP l 0");
        same("RPOP l 3");
        same("LPOP nokey -1");
        same("LPOP nokey abc");
        same("RPOP nokey 1.5");
        same("LPOP l 1 2");
        same("RPOP l 1 2");
        same("LPUSH");
        same("LPUSH l");
        same("RPUSHX l");
        same("LPOP");
        same("LLEN nokey");
        same("LLEN");
        same("RPUSH n 1 2 3");
        same("RPOP n 9223372036854775807");
        same("RPUSH n 1");
        same("LPOP n -9223372036854775808");
    }

    @Test
    void rangesAndIndexesMatchRedis() {
        same("RPUSH l a b c d e f");
        for (String range : List.of("0 -1", "0 0", "-1 -1", "-3 -2", "2 100", "-100 1", "-100 -50", "5 2", "6 10",
                "0 -7", "-6 -6", "3 3", "1 -2", "-9223372036854775808 9223372036854775807")) {
            same("LRANGE l " + range);
        }
        for (String i : List.of("0", "5", "6", "-1", "-6", "-7", "100", "-9223372036854775808", "9223372036854775807")) {
            same("LINDEX l " + i);
        }
        same("LRANGE l a 1");
        same("LRANGE l 1 b");
        same("LRANGE nokey 0 -1");
        same("LRANGE nokey x y");
        same("LINDEX l x");
        same("LINDEX nokey x");
        same("LINDEX nokey 0");
        same("LSET l 0 A");
        same("LSET l -1 F");
        same("LSET l -6 AA");
        same("LSET l 6 x");
        same("LSET l -7 x");
        same("LSET l x x");
        same("LSET nokey 0 x");
        same("LRANGE l 0 -1");
    }

    @Test
    void remTrimInsertMatchRedis() {
        same("RPUSH l a b a c a b a");
        same("LREM l 2 a");
        same("LRANGE l 0 -1");
        same("LREM l -1 a");
        same("LRANGE l 0 -1");
        same("LREM l 0 b");
        same("LREM l 0 zz");
        same("LREM l x a");
        same("LREM nokey 1 a");
        same("LREM nokey x a");
        same("LRANGE l 0 -1");
        same("LREM l 0 a");
        same("LREM l 0 c");
        same("EXISTS l");

        same("RPUSH t 1 2 3 4 5 6 7 8");
        same("LTRIM t 1 -2");
        same("LRANGE t 0 -1");
        same("LTRIM t -100 100");
        same("LTRIM t 0 -1");
        same("LTRIM t 1 0");
        same("EXISTS t");
        same("LTRIM t 0 1");
        same("RPUSH t 1 2 3");
        same("LTRIM t 5 10");
        same("EXISTS t");
        same("LTRIM t a 1");
        same("LTRIM t 0 b");
        same("RPUSH t 1 2 3");
        same("LTRIM t -2 -1");
        same("LRANGE t 0 -1");

        same("RPUSH i a b c b");
        same("LINSERT i BEFORE b X");
        same("LINSERT i after b Y");
        same("LINSERT i AfTeR c Z");
        same("LINSERT i before a W");
        same("LINSERT i before nope x");
        same("LRANGE i 0 -1");
        same("LINSERT i middle a x");
        same("LINSERT nokey before a x");
        same("LINSERT nokey middle a x");
        same("LINSERT i before a");
        same("EXISTS nokey");
    }

    @Test
    void lposMatchesRedis() {
        same("RPUSH l a b c 1 2 3 c c");
        for (String opts : List.of("", " RANK 1", " RANK 2", " RANK 3", " RANK 4", " RANK -1", " RANK -2", " RANK -3",
                " RANK -4", " COUNT 0", " COUNT 1", " COUNT 2", " COUNT 5", " RANK 2 COUNT 0", " RANK -1 COUNT 2",
                " RANK -2 COUNT 0", " MAXLEN 3", " MAXLEN 4", " MAXLEN 3 COUNT 0", " RANK -1 MAXLEN 1",
                " RANK -1 MAXLEN 2 COUNT 0", " COUNT 0 MAXLEN 0", " rank 2 count 1 maxlen 8", " RANK 1 RANK -1",
                " RANK 9223372036854775807", " RANK -9223372036854775807", " RANK -9223372036854775808",
                " RANK -9223372036854775808 COUNT 0", " RANK -9223372036854775808 COUNT 2")) {
            same("LPOS l c" + opts);
        }
        same("LPOS l zz");
        same("LPOS l zz COUNT 0");
        same("LPOS l c RANK 0");
        same("LPOS l c RANK x");
        same("LPOS l c COUNT -1");
        same("LPOS l c COUNT x");
        same("LPOS l c MAXLEN -1");
        same("LPOS l c MAXLEN x");
        same("LPOS l c RANK");
        same("LPOS l c COUNT");
        same("LPOS l c FOO 1");
        same("LPOS l c COUNT 1 FOO");
        same("LPOS nokey c");
        same("LPOS nokey c COUNT 1");
        same("LPOS nokey c RANK 0");
        same("LPOS l");
    }

    @Test
    void movesMatchRedis() {
        same("RPUSH a 1 2 3");
        same("RPUSH b x");
        same("LMOVE a b LEFT RIGHT");
        same("LMOVE a b right left");
        same("LRANGE a 0 -1");
        same("LRANGE b 0 -1");
        same("RPOPLPUSH a b");
        same("EXISTS a");
        same("RPOPLPUSH a b");
        same("LMOVE a b LEFT LEFT");
        same("LMOVE b b LEFT RIGHT");
        same("LMOVE b b RIGHT LEFT");
        same("LMOVE b b LEFT LEFT");
        same("LRANGE b 0 -1");
        same("RPOPLPUSH b c");
        same("LRANGE c 0 -1");
        same("RPUSH one v");
        same("RPOPLPUSH one one");
        same("LRANGE one 0 -1");
        same("LMOVE b c MIDDLE LEFT");
        same("LMOVE b c LEFT UP");
        same("LMOVE nokey c MIDDLE LEFT");
        same("LMOVE b");
        same("RPOPLPUSH b");
    }

    @Test
    void lmpopMatchesRedis() {
        same("RPUSH a 1 2 3 4 5");
        same("RPUSH b x y");
        same("LMPOP 2 nokey a LEFT");
        same("LMPOP 2 nokey a RIGHT COUNT 2");
        same("LMPOP 1 a left count 10");
        same("LMPOP 2 a b RIGHT COUNT 1");
        same("LMPOP 3 nokey a b LEFT COUNT 5");
        same("LMPOP 1 b LEFT");
        same("LMPOP 2 a b LEFT");
        same("LMPOP 0 a LEFT");
        same("LMPOP -1 a LEFT");
        same("LMPOP x a LEFT");
        same("LMPOP 2 a LEFT");
        same("LMPOP 1 a MIDDLE");
        same("LMPOP 1 a LEFT COUNT 0");
        same("LMPOP 1 a LEFT COUNT -1");
        same("LMPOP 1 a LEFT COUNT x");
        same("LMPOP 1 a LEFT COUNT 1 COUNT 1");
        same("LMPOP 1 a LEFT COUNT");
        same("LMPOP 1 a LEFT FOO");
        same("LMPOP 9223372036854775807 a LEFT");
        same("LMPOP 1 a");
        same("SET s x");
        same("RPUSH c 1");
        same("LMPOP 2 s c LEFT");
        same("LMPOP 2 c s LEFT");
        same("LMPOP 2 nokey s LEFT");
    }

    @Test
    void wrongTypeEverywhere() {
        same("SET s x");
        for (String cmd : List.of("LPUSH s a", "RPUSH s a", "LPUSHX s a", "RPUSHX s a", "LPOP s", "RPOP s",
                "LPOP s 0", "RPOP s 2", "LLEN s", "LRANGE s 0 -1", "LINDEX s 0", "LSET s 0 a", "LREM s 0 a",
                "LTRIM s 0 1", "LINSERT s BEFORE a b", "LPOS s a", "LPOS s a COUNT 0", "LMOVE s d LEFT LEFT",
                "RPOPLPUSH s d", "LMPOP 1 s LEFT")) {
            same(cmd);
        }
        same("RPUSH l a");
        same("LMOVE l s LEFT LEFT");
        same("RPOPLPUSH l s");
        same("LMOVE nokey s LEFT LEFT");
        same("LRANGE l 0 -1");
        same("GET s");
        assertThat(oracle.frames().take()).containsExactly("SET s x", "RPUSH l a");
    }

    @Test
    void largeListsMatchRedis() {
        List<String> cmd = new ArrayList<>(List.of("RPUSH", "big"));
        for (int i = 0; i < 5000; i++) {
            cmd.add("e" + (i % 97));
        }
        oracle.same(cmd.toArray(new String[0]));
        same("LRANGE big 0 -1");
        same("LRANGE big 1000 1100");
        same("LINDEX big 2500");
        same("LINSERT big BEFORE e50 X");
        same("LREM big 7 e3");
        same("LREM big -9 e4");
        same("LPOS big e5 RANK -3 COUNT 10");
        same("LTRIM big 10 -10");
        same("LPOP big 1000");
        same("RPOP big 1000");
        same("LRANGE big 0 -1");
    }

    @Test
    void binarySafeElements() {
        String bin = "a\u0000b\r\nc";
        oracle.same("RPUSH", "b", bin, "", "x y");
        oracle.same("LRANGE", "b", "0", "-1");
        oracle.same("LPOS", "b", "");
        oracle.same("LINSERT", "b", "AFTER", bin, "\u0000");
        oracle.same("LREM", "b", "0", "");
        oracle.same("LRANGE", "b", "0", "-1");
    }

    @Test
    void framesOfEachWrite() {
        RawClient raw = oracle.kevy().raw();
        raw.call("LPUSH", "k", "a", "b");
        raw.call("RPUSH", "k", "c");
        raw.call("LPUSHX", "k", "x");
        raw.call("RPUSHX", "k", "y");
        raw.call("LPUSHX", "nokey", "x");
        raw.call("RPUSHX", "nokey", "x");
        assertThat(oracle.frames().take()).containsExactly("LPUSH k a b", "RPUSH k c", "LPUSH k x", "RPUSH k y");
        raw.call("lpush", "k", "z");
        assertThat(oracle.frames().take()).containsExactly("LPUSH k z");

        // k = z x b a c y
        raw.call("LPOP", "k");
        raw.call("RPOP", "k", "2");
        raw.call("LPOP", "k", "0");
        raw.call("LPOP", "nokey");
        raw.call("LPOP", "nokey", "3");
        assertThat(oracle.frames().take()).containsExactly("LPOP k 1", "RPOP k 2");

        // k = x b a
        raw.call("LSET", "k", "-1", "A");
        raw.call("LSET", "k", "9", "A");
        raw.call("LINSERT", "k", "before", "b", "B");
        raw.call("LINSERT", "k", "AFTER", "nope", "B");
        raw.call("LREM", "k", "1", "x");
        raw.call("LREM", "k", "0", "nope");
        raw.call("LTRIM", "k", "0", "-1");
        raw.call("LTRIM", "k", "0", "1");
        assertThat(oracle.frames().take()).containsExactly("LSET k -1 A", "LINSERT k before b B", "LREM k 1 x",
                "LTRIM k 0 1");
        assertThat(oracle.kevy().raw().call("LRANGE", "k", "0", "-1")).isEqualTo("*2\r\n$1\r\nB\r\n$1\r\nb\r\n");

        raw.call("LPOP", "k", "5");
        assertThat(oracle.frames().take()).containsExactly("LPOP k 2");
        assertThat(raw.call("EXISTS", "k")).isEqualTo(":0\r\n");

        raw.call("RPUSH", "m", "1", "2", "3");
        raw.call("LMPOP", "2", "nokey", "m", "RIGHT", "COUNT", "2");
        raw.call("LMPOP", "1", "m", "LEFT", "COUNT", "5");
        raw.call("LMPOP", "1", "m", "LEFT");
        assertThat(oracle.frames().take()).containsExactly("RPUSH m 1 2 3", "RPOP m 2", "LPOP m 1");

        raw.call("RPUSH", "t", "a");
        raw.call("LTRIM", "t", "1", "0");
        assertThat(oracle.frames().take()).containsExactly("RPUSH t a", "LTRIM t 1 0");
        assertThat(raw.call("EXISTS", "t")).isEqualTo(":0\r\n");

        raw.call("SET", "s", "x");
        oracle.frames().take();
        raw.call("LPUSH", "s", "a");
        raw.call("LPOP", "s");
        raw.call("LMOVE", "s", "d", "LEFT", "LEFT");
        raw.call("LMPOP", "1", "s", "LEFT");
        raw.call("LSET", "s", "0", "a");
        assertThat(oracle.frames().take()).isEmpty();
    }

    /** LMOVE / RPOPLPUSH: the pop on src's shard and the push on dst's, whatever the shards. */
    @Test
    void moveFramesAcrossAndWithinShards() {
        Engine e = oracle.engine();
        String src = keyOnShard(e, "src", 0);
        String far = keyOnShard(e, "dst", 1);
        String near = keyOnShard(e, "dst", 0);
        RawClient raw = oracle.kevy().raw();
        raw.call("RPUSH", src, "a", "b", "c");
        oracle.frames().takeFrames();

        assertThat(raw.call("LMOVE", src, far, "LEFT", "RIGHT")).isEqualTo("$1\r\na\r\n");
        List<FrameRecorder.Frame> fs = oracle.frames().takeFrames();
        assertThat(fs).extracting(FrameRecorder.Frame::text).containsExactly("LPOP " + src + " 1", "RPUSH " + far + " a");
        assertThat(fs).extracting(FrameRecorder.Frame::shard).containsExactly(0, 1);

        assertThat(raw.call("RPOPLPUSH", src, near)).isEqualTo("$1\r\nc\r\n");
        fs = oracle.frames().takeFrames();
        assertThat(fs).extracting(FrameRecorder.Frame::text).containsExactly("RPOP " + src + " 1", "LPUSH " + near + " c");
        assertThat(fs).extracting(FrameRecorder.Frame::shard).containsExactly(0, 0);

        // src == dst: the push first, so a replay never empties (and deletes) the list
        assertThat(raw.call("LMOVE", src, src, "LEFT", "RIGHT")).isEqualTo("$1\r\nb\r\n");
        assertThat(oracle.frames().take()).containsExactly("RPUSH " + src + " b", "LPOP " + src + " 1");
        assertThat(raw.call("LRANGE", src, "0", "-1")).isEqualTo("*1\r\n$1\r\nb\r\n");

        // the last element moves: src is deleted
        assertThat(raw.call("LMOVE", src, far, "RIGHT", "LEFT")).isEqualTo("$1\r\nb\r\n");
        assertThat(oracle.frames().take()).containsExactly("RPOP " + src + " 1", "LPUSH " + far + " b");
        assertThat(raw.call("EXISTS", src)).isEqualTo(":0\r\n");
        assertThat(raw.call("LRANGE", far, "0", "-1")).isEqualTo("*2\r\n$1\r\nb\r\n$1\r\na\r\n");

        // nothing to move: no frames
        assertThat(raw.call("LMOVE", src, far, "RIGHT", "LEFT")).isEqualTo("$-1\r\n");
        assertThat(oracle.frames().take()).isEmpty();
    }

    @Test
    void lmpopOverKeysOnDifferentShards() {
        Engine e = oracle.engine();
        String a = keyOnShard(e, "a", 0);
        String b = keyOnShard(e, "b", 1);
        RawClient raw = oracle.kevy().raw();
        raw.call("RPUSH", b, "1", "2");
        oracle.frames().take();
        assertThat(raw.call("LMPOP", "2", a, b, "LEFT", "COUNT", "5"))
                .isEqualTo("*2\r\n$" + b.length() + "\r\n" + b + "\r\n*2\r\n$1\r\n1\r\n$1\r\n2\r\n");
        List<FrameRecorder.Frame> fs = oracle.frames().takeFrames();
        assertThat(fs).extracting(FrameRecorder.Frame::text).containsExactly("LPOP " + b + " 2");
        assertThat(fs).extracting(FrameRecorder.Frame::shard).containsExactly(1);
    }

    @Test
    void encodingIsQuicklist() {
        oracle.kevy().raw().call("RPUSH", "q", "a");
        assertThat(StateDump.encoding(oracle.engine(), "q")).isEqualTo("quicklist");
    }

    @Test
    @SuppressWarnings("deprecation") // RPOPLPUSH is deprecated in lettuce (and Redis) but still served
    void lettuceClient() {
        RedisCommands<String, String> r = oracle.kevy().lettuce();
        assertThat(r.rpush("l", "a", "b", "c", "b")).isEqualTo(4);
        assertThat(r.lpush("l", "z")).isEqualTo(5);
        assertThat(r.lrange("l", 0, -1)).containsExactly("z", "a", "b", "c", "b");
        assertThat(r.lindex("l", -1)).isEqualTo("b");
        assertThat(r.lpos("l", "b")).isEqualTo(2);
        assertThat(r.lpos("l", "b", 0, LPosArgs.Builder.rank(-1))).containsExactly(4L, 2L);
        assertThat(r.linsert("l", true, "c", "C")).isEqualTo(6);
        assertThat(r.lrem("l", 0, "b")).isEqualTo(2);
        assertThat(r.lset("l", 0, "Z")).isEqualTo("OK");
        assertThat(r.lmove("l", "m", LMoveArgs.Builder.leftRight())).isEqualTo("Z");
        assertThat(r.rpoplpush("l", "m")).isEqualTo("c");
        assertThat(r.lmpop(LMPopArgs.Builder.left().count(5), "nokey", "m")).satisfies(kv -> {
            assertThat(kv.getKey()).isEqualTo("m");
            assertThat(kv.getValue()).containsExactly("c", "Z");
        });
        assertThat(r.lpop("l", 3)).containsExactly("a", "C");
        assertThat(r.llen("l")).isZero();
        assertThat(r.rpop("l")).isNull();
        r.set("str", "x");
        assertThatThrownBy(() -> r.lpush("str", "a")).isInstanceOf(RedisCommandExecutionException.class)
                .hasMessageStartingWith("WRONGTYPE");
    }
}
