package io.kevy.script;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.testing.OracleFixture;
import io.kevy.testing.RawClient;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * FCALL, FCALL_RO and FUNCTION against a real Redis 7.0, byte for byte: the library metadata and
 * {@code redis.register_function} errors, FCALL's checks and runtime error shapes, FUNCTION LIST / STATS /
 * DELETE / FLUSH / DUMP / RESTORE (a payload dumped by the real Redis restored into kevy, and kevy's into Redis),
 * COMMAND INFO; and the frames on a 2-shard server (FCALL: its writes' effects; FUNCTION LOAD / DELETE / FLUSH /
 * RESTORE: FUNCTION frames on shard 0).
 */
class FunctionCommandsIT {
    @RegisterExtension
    static final OracleFixture oracle = OracleFixture.create().shards(2).recordFrames();

    private static final String LIB = "#!lua name=lib\n"
            + "redis.register_function('w', function(keys, args) return redis.call('set', keys[1], args[1]) end)\n"
            + "redis.register_function{function_name='r', callback=function(keys, args) "
            + "return redis.call('get', keys[1]) end, flags={'no-writes'}, description='reads'}\n"
            + "redis.register_function('e', function(k, a) error('boom') end)\n"
            + "redis.register_function('e2', function(k, a) return redis.call('nosuch') end)\n"
            + "redis.register_function('reg', function(k, a) return redis.register_function('zz', function() end) end)\n"
            + "redis.register_function('glob', function(k, a) return KEYS end)\n"
            + "redis.register_function{function_name='rw', callback=function(keys, args) "
            + "return redis.call('set', keys[1], 'v') end, flags={'no-writes'}}\n"
            + "redis.register_function('t', function(k, a) return {#k, #a, k[1], a[1], a[2]} end)\n"
            + "redis.register_function('pc', function(k, a) return redis.pcall('incr', k[1]) end)\n";

    @BeforeEach
    void noLibraries() {
        oracle.same("FUNCTION", "FLUSH");
        oracle.frames().take();
    }

    private static void load(String code) {
        oracle.same("FUNCTION", "LOAD", code);
    }

    @Test
    void libraryMetadataAndRegistrationErrorsMatchRedis() {
        load("return 1");
        load("#!lua");
        load("#!lua name=a");
        load("#!lua name=a\nreturn 1");
        load("#!foo name=b\nx");
        load("#!lua name=b foo=1\nx");
        load("#!lua name=b name=c\nx");
        load("#!lua\nx");
        load("#!lua name=b-c\nx");
        load("#!lua name=\"q x\"\nredis.register_function('x', function() end)");
        load("#!lua name=\"e9\"x\nx");
        load("#!lua name=\"unterminated\nx");
        load("#!lua name=b\nreturn 1 +");
        load("#!lua name=b\nerror('boom')");
        load("#!lua name=b\nredis.call('set','x','y')");
        load("#!lua name=b\nlocal s = string.len('x')");
        load("#!lua name=b\nfoo=1");
        load("#!lua name=b\nredis.register_function('g', function() end)\nredis.register_function('g', function() end)");
        load("#!lua name=b\nredis.register_function('g-x', function() end)");
        load("#!lua name=b\nredis.register_function{function_name='g', callback=function() end, flags={'bad'}}");
        load("#!lua name=b\nredis.register_function{function_name='g', callback=function() end, flags='no-writes'}");
        load("#!lua name=b\nredis.register_function{function_name='g', callback=function() end, foo=1}");
        load("#!lua name=b\nredis.register_function{function_name='g'}");
        load("#!lua name=b\nredis.register_function{callback=function() end}");
        load("#!lua name=b\nredis.register_function{function_name='x', callback=5}");
        load("#!lua name=b\nredis.register_function{[1]='x'}");
        load("#!lua name=b\nredis.register_function('g')");
        load("#!lua name=b\nredis.register_function(1, 2, 3)");
        load("#!lua name=b\nredis.register_function(function() end)");
        load("#!lua name=b\nredis.register_function('a', function() end)\nredis.register_function('b', 5)");
        load("#!lua name=b\nredis.register_function({}, function() end)");
        load("#!lua name=inf\nlocal i = 0 while true do i = i + 1 end");
        oracle.same("FUNCTION", "LOAD", "REPLACE");
        oracle.same("FUNCTION", "LOAD", "foo", "bar");
        oracle.same("FUNCTION", "LOAD");
        assertThat(oracle.frames().take()).as("failed loads change nothing and emit nothing").isEmpty();
        oracle.same("FUNCTION", "LIST");
    }

    @Test
    void loadReplaceAndCollisionsMatchRedis() {
        load("#!lua name=a\nredis.register_function('f', function(k, a) return 1 end)");
        load("#!lua name=a\nredis.register_function('f', function(k, a) return 2 end)");
        oracle.same("FUNCTION", "LOAD", "REPLACE", "#!lua name=a\nredis.register_function('f', function() return 2 end)");
        oracle.same("FCALL", "f", "0");
        load("#!lua name=b\nredis.register_function('F', function() end)");
        load("#!LUA Name=b\nredis.register_function('g', function() return 'b' end)");
        oracle.same("FCALL", "G", "0");
        load("#!lua name=c\nredis.register_function('5x', function() return 5 end)");
        load("#!lua name=d\nredis.register_function{function_name='n', callback=function() return 1 end, "
                + "flags={'NO-WRITES', 'allow-oom', 'allow-stale', 'no-cluster', 'allow-cross-slot-keys'}, "
                + "description='d'}");
        oracle.same("FUNCTION", "LIST", "LIBRARYNAME", "d");
        oracle.same("FUNCTION", "LIST", "LIBRARYNAME", "a", "WITHCODE");
        oracle.same("FUNCTION", "LIST", "WITHCODE", "LIBRARYNAME", "nomatch*");
        oracle.same("FUNCTION", "LIST", "LIBRARYNAME");
        oracle.same("FUNCTION", "LIST", "foo");
        oracle.same("FUNCTION", "LIST", "withcode", "withcode");
        oracle.same("FUNCTION", "DELETE", "nosuch");
        oracle.same("FUNCTION", "DELETE", "A");
        oracle.same("FUNCTION", "DELETE", "a");
        oracle.same("FCALL", "f", "0");
        oracle.same("FUNCTION", "DELETE");
        oracle.same("FUNCTION", "STATS");
        oracle.same("FUNCTION", "KILL");
        oracle.same("FUNCTION", "FLUSH", "bad");
        oracle.same("FUNCTION", "FLUSH", "a", "b");
        oracle.same("FUNCTION", "FLUSH", "ASYNC");
        oracle.same("FUNCTION", "LIST");
        oracle.same("FUNCTION", "STATS");
        oracle.same("FUNCTION", "HELP");
        oracle.same("FUNCTION", "nosuch");
        oracle.same("FUNCTION");
    }

    @Test
    void fcallRunsFunctionsAsRedisDoes() {
        load(LIB);
        oracle.same("FCALL", "w", "1", "k", "v");
        oracle.same("FCALL", "W", "1", "k", "v2");
        oracle.same("FCALL_RO", "w", "1", "k", "v");
        oracle.same("FCALL_RO", "r", "1", "k");
        oracle.same("FCALL", "r", "1", "k");
        oracle.same("FCALL", "nosuch", "0");
        oracle.same("FCALL", "nosuch", "x");
        oracle.same("FCALL", "w", "x");
        oracle.same("FCALL", "w", "2", "k");
        oracle.same("FCALL", "w", "-1");
        oracle.same("FCALL", "e", "0");
        oracle.same("FCALL", "e2", "0");
        // not compared: luaj says "attempt to call nil" where Lua 5.1 names the field ('register_function')
        assertThat(oracle.kevy().raw().call("FCALL", "reg", "0")).startsWith("-ERR user_function:6: attempt to call");
        oracle.same("FCALL", "glob", "0");
        oracle.same("FCALL", "rw", "1", "k");
        oracle.same("FCALL_RO", "rw", "1", "k");
        oracle.same("FCALL", "t", "2", "a", "b", "c");
        oracle.same("FCALL", "t", "0");
        oracle.same("FCALL", "pc", "1", "k");
        oracle.same("FCALL");
        oracle.same("FCALL", "w");
        oracle.same("EVAL", "return redis.call('fcall', 'r', 1, 'k')", "0");
        oracle.same("GET", "k");
    }

    @Test
    void registerFunctionKeptPastTheLoadFailsAsRedis() {
        load("#!lua name=keep\nlocal rf = redis.register_function\n"
                + "rf('later', function() rf('zz', function() end) return 1 end)");
        oracle.same("FCALL", "later", "0");
        load("#!lua name=v\nlocal v = redis.REDIS_VERSION_NUM\nredis.register_function('vv', function() return v end)");
        oracle.same("FCALL", "vv", "0");
    }

    @Test
    void commandMetadataMatchesRedis() {
        for (String name : List.of("fcall", "fcall_ro", "function|load", "function|list", "function|delete",
                "function|flush", "function|dump", "function|restore", "function|stats", "function|kill",
                "function|help")) {
            oracle.same("COMMAND", "INFO", name);
        }
        oracle.same("COMMAND", "GETKEYS", "FCALL", "f", "2", "a", "b", "c");
    }

    @Test
    void dumpAndRestoreRoundTripBothWays() {
        String code = "#!lua name=dumped\nredis.register_function('d1', function(keys, args) "
                + "return 'a function long enough for LZF to compress its text, dumped by both servers' end)";
        load(code);
        String dump = oracle.same("FUNCTION", "DUMP");
        assertThat(dump).startsWith("$");
        byte[] redisPayload = payloadOf(oracle.redis().raw(), "FUNCTION", "DUMP");
        byte[] kevyPayload = payloadOf(oracle.kevy().raw(), "FUNCTION", "DUMP");
        assertThat(kevyPayload).as("kevy's FUNCTION DUMP is Redis's bytes").isEqualTo(redisPayload);
        oracle.same("FUNCTION", "FLUSH");
        oracle.frames().take();

        // Redis's payload into kevy (and into Redis, for the same replies)
        sameWithPayload(redisPayload);
        assertThat(oracle.frames().take()).containsExactly("FUNCTION LOAD REPLACE " + code);
        oracle.same("FCALL", "d1", "0");
        sameWithPayload(redisPayload); // APPEND onto the same library
        sameWithPayload(redisPayload, "APPEND");
        sameWithPayload(redisPayload, "REPLACE");
        assertThat(oracle.frames().take()).as("REPLACE with the same code changes nothing").isEmpty();
        load("#!lua name=other\nredis.register_function('d1x', function() return 1 end)");
        sameWithPayload(redisPayload, "FLUSH");
        assertThat(oracle.frames().take()).containsExactly("FUNCTION LOAD REPLACE #!lua name=other\n"
                        + "redis.register_function('d1x', function() return 1 end)",
                "FUNCTION DELETE other");
        oracle.same("FUNCTION", "LIST");
        load("#!lua name=clash\nredis.register_function('d1', function() return 1 end)");
        oracle.same("FUNCTION", "DELETE", "dumped");
        load("#!lua name=clash\nredis.register_function('d1', function() return 1 end)");
        sameWithPayload(redisPayload, "REPLACE");
        oracle.same("FUNCTION", "RESTORE", "x", "y");
        oracle.same("FUNCTION", "RESTORE", "abcdefghijkl");
        oracle.same("FUNCTION", "RESTORE", "a", "b", "c");
    }

    @Test
    void corruptRestorePayloadsAreRefusedAsRedisRefusesThem() {
        load("#!lua name=c1\nredis.register_function('c1', function() return 1 end)");
        byte[] good = payloadOf(oracle.redis().raw(), "FUNCTION", "DUMP");
        oracle.same("FUNCTION", "FLUSH");
        oracle.frames().take();
        byte[] flipped = good.clone();
        flipped[5] ^= 0x20;
        sameWithPayload(flipped);
        byte[] newer = good.clone();
        newer[newer.length - 10] = 11; // RDB version 11
        sameWithPayload(newer);
        sameWithPayload(withFooter(new byte[] {0})); // a string type, not a function
        sameWithPayload(withFooter(new byte[] {(byte) 245, (byte) 0x80, 0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff}));
        sameWithPayload(withFooter(new byte[] {(byte) 245, 3, 'a', 'b', 'c'}));
        byte[] two = concat(new byte[] {(byte) 245}, lengthPrefixed("#!lua name=t\nredis.register_function('t1', "
                + "function() end)"));
        sameWithPayload(withFooter(concat(two, two))); // one library twice in a payload
        sameWithPayload(withFooter(new byte[0])); // no library: restores nothing
        oracle.same("FUNCTION", "LIST");
        assertThat(oracle.frames().take()).as("refused payloads change nothing").isEmpty();
    }

    @Test
    void hugeLibrariesAndManyFunctionsLoad() {
        StringBuilder big = new StringBuilder("#!lua name=big\nlocal pad = '");
        big.append("x".repeat(2 << 20)).append("'\nredis.register_function('bigf', function() return #pad end)");
        load(big.toString());
        oracle.same("FCALL", "bigf", "0");
        StringBuilder many = new StringBuilder("#!lua name=many\n");
        for (int i = 0; i < 2000; i++) {
            many.append("redis.register_function('f").append(i).append("', function() return ").append(i)
                    .append(" end)\n");
        }
        load(many.toString());
        oracle.same("FCALL", "f1999", "0");
        oracle.same("FUNCTION", "STATS");
        byte[] dump = payloadOf(oracle.kevy().raw(), "FUNCTION", "DUMP");
        oracle.same("FUNCTION", "FLUSH");
        RawClient kevy = oracle.kevy().raw();
        kevy.send(RawClient.encode(bytes("FUNCTION"), bytes("RESTORE"), dump));
        assertThat(kevy.readReply()).isEqualTo("+OK\r\n");
        assertThat(kevy.call("FCALL", "f1999", "0")).isEqualTo(":1999\r\n");
        assertThat(kevy.call("FCALL", "bigf", "0")).isEqualTo(":" + (2 << 20) + "\r\n");
    }

    @Test
    void framesAreEffectsOnShardZero() {
        oracle.same("FUNCTION", "LOAD", LIB);
        oracle.same("FCALL", "w", "1", "{a}k", "v1");
        oracle.same("FCALL", "r", "1", "{a}k");
        oracle.same("FCALL", "e", "0");
        oracle.same("FUNCTION", "DELETE", "lib");
        oracle.same("FUNCTION", "DELETE", "lib");
        oracle.same("FUNCTION", "LOAD", LIB);
        oracle.same("FUNCTION", "LOAD", "#!lua name=two\nredis.register_function('two', function() end)");
        oracle.same("FUNCTION", "FLUSH");
        oracle.same("FUNCTION", "FLUSH");
        List<io.kevy.testing.FrameRecorder.Frame> frames = oracle.frames().takeFrames();
        assertThat(frames.stream().map(io.kevy.testing.FrameRecorder.Frame::text).toList()).containsExactly(
                "FUNCTION LOAD REPLACE " + LIB, "SET {a}k v1", "FUNCTION DELETE lib", "FUNCTION LOAD REPLACE " + LIB,
                "FUNCTION LOAD REPLACE #!lua name=two\nredis.register_function('two', function() end)",
                "FUNCTION FLUSH");
        assertThat(frames.stream().filter(f -> f.argv()[0][0] == 'F').map(f -> f.shard()).distinct())
                .containsExactly(0);
        oracle.same("FUNCTION", "LOAD", LIB);
        oracle.same("FLUSHALL");
        assertThat(oracle.frames().take()).as("FLUSHALL keeps the libraries: the new stream of shard 0 restates them")
                .containsExactly("FUNCTION LOAD REPLACE " + LIB, "FUNCTION LOAD REPLACE " + LIB);
        oracle.same("FCALL", "r", "1", "{a}k");
    }

    private static void sameWithPayload(byte[] payload, String... policy) {
        StringBuilder sb = new StringBuilder();
        sb.append(new String(payload, StandardCharsets.ISO_8859_1));
        String[] args = new String[3 + policy.length];
        args[0] = "FUNCTION";
        args[1] = "RESTORE";
        args[2] = sb.toString();
        System.arraycopy(policy, 0, args, 3, policy.length);
        oracle.sameBytes(args);
    }

    /** The bulk payload of a command's reply. */
    private static byte[] payloadOf(RawClient connection, String... cmd) {
        byte[] r;
        try (RawClient client = connection) {
            client.command(cmd);
            r = client.readReplyBytes();
        }
        int nl = 0;
        while (r[nl] != '\n') {
            nl++;
        }
        return Arrays.copyOfRange(r, nl + 1, r.length - 2);
    }

    /** {@code body} + RDB version 10 + its CRC64, as Redis's DUMP footer. */
    private static byte[] withFooter(byte[] body) {
        byte[] b = concat(body, new byte[] {10, 0});
        long crc = io.kevy.engine.dump.Crc64.update(0, b, 0, b.length);
        byte[] c = new byte[8];
        for (int i = 0; i < 8; i++) {
            c[i] = (byte) (crc >>> (8 * i));
        }
        return concat(b, c);
    }

    private static byte[] lengthPrefixed(String s) {
        byte[] b = bytes(s);
        if (b.length >= 1 << 14) {
            throw new IllegalArgumentException("too long for the test's encoder");
        }
        byte[] len = b.length < 64 ? new byte[] {(byte) b.length}
                : new byte[] {(byte) (0x40 | b.length >> 8), (byte) b.length};
        return concat(len, b);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] o = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, o, a.length, b.length);
        return o;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }
}
