package io.kevy.script;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.testing.OracleFixture;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * EVAL, EVALSHA, EVAL_RO, EVALSHA_RO and SCRIPT against a real Redis 7.0, byte for byte: the conversion rules
 * both ways, the sandbox and protected globals, the error shapes (compile, runtime, redis.call, numkeys,
 * NOSCRIPT, read-only), the redis.* helpers and bit; and the frames a script emits on a 2-shard server (its
 * writes' effects, never EVAL).
 */
class ScriptCommandsIT {
    @RegisterExtension
    static final OracleFixture oracle = OracleFixture.create().recordFrames();

    private static void eval(String script, String... keysAndArgs) {
        List<String> cmd = new ArrayList<>(List.of("EVAL", script));
        if (keysAndArgs.length == 0) {
            cmd.add("0");
        } else {
            cmd.addAll(List.of(keysAndArgs));
        }
        oracle.same(cmd.toArray(new String[0]));
    }

    @Test
    void luaToRespConversionMatchesRedis() {
        eval("return 3.99");
        eval("return -3.99");
        eval("return 1e15");
        eval("return true");
        eval("return false");
        eval("return nil");
        eval("return");
        eval("return 'a string'");
        eval("return {1,2,nil,4}");
        eval("return {1,'a',{2,false,true},3.5}");
        eval("return {}");
        eval("return {ok='FINE'}");
        eval("return {err='My Error'}");
        eval("return {err='-CODE with dash'}");
        eval("return {err=1}");
        eval("return {ok=1}");
        eval("return {ok='line\\r\\nbreak'}");
        eval("return redis.status_reply('FINE')");
        eval("return redis.error_reply('My Error')");
        eval("return redis.error_reply('-My Error')");
        eval("return redis.error_reply()");
        // luaPushErrorBuff: a text after the '-' without a space is an ERR message, else its first word the code
        for (String m : List.of("boom", "-boom", "", "-", "MY boom x", "-MY boom", "x y", " lead", "-A  b",
                "a b\\r\\n", "\\nfoo", "x\\r\\n", "-X\\n")) {
            eval("return redis.error_reply('" + m + "')");
            eval("return redis.error_reply('" + m + "').err");
            eval("error(redis.error_reply('" + m + "'))");
            eval("local ok, e = pcall(error, redis.error_reply('" + m + "')) return e");
        }
        eval("return redis.error_reply(5)");
        eval("return redis.REDIS_VERSION");
        eval("return redis.REDIS_VERSION_NUM");
        eval("return redis.status_reply()");
        eval("return function() end");
        eval("return {KEYS[1],ARGV[1],#KEYS,#ARGV}", "2", "k1", "k2", "a1");
    }

    @Test
    void respToLuaConversionMatchesRedis() {
        eval("redis.call('set','s','v') return redis.call('get','s')");
        eval("return redis.call('get','nokey')");
        eval("return type(redis.call('get','nokey'))");
        eval("return redis.call('incr','n')");
        eval("return type(redis.call('incr','n'))");
        eval("redis.call('del','l') redis.call('rpush','l','a','b','c') return redis.call('lrange','l',0,-1)");
        eval("return redis.call('hgetall','nohash')");
        eval("return redis.call('ping')");
        eval("return type(redis.call('ping'))");
        eval("return redis.call('ping')['ok']");
        eval("return redis.pcall('incr','s')");
        eval("return type(redis.pcall('incr','s'))");
        eval("return redis.pcall('incr','s')['err']");
        eval("return redis.call('set','a',1.5)");
        eval("return redis.call('get','a')");
        eval("redis.call('set','a',1e20) return redis.call('get','a')");
        eval("redis.call('set','a',3) return redis.call('get','a')");
        eval("redis.call('set','a',-0.25) return redis.call('get','a')");
        eval("redis.call('set','a',123456789012345) return redis.call('get','a')");
        for (String n : List.of("0.1", "1/3", "-2/3", "2^63", "-2^63", "2^53", "123456789012345678", "1e16", "1e17",
                "1e-5", "1e-7", "0.0001", "0/0", "1/0", "-1/0", "1e308", "5e-324", "100", "-7.25e-3")) {
            eval("redis.call('set','a'," + n + ") return redis.call('get','a')");
        }
        eval("return redis.call('exists','a','nokey')");
    }

    @Test
    void errorsMatchRedis() {
        eval("return x");
        eval("\nlocal y = 1\nreturn zz");
        eval("x=1");
        eval("return 1 +");
        eval("foo(");
        eval("error('boom')");
        eval("error({err='X boom'})");
        eval("error()");
        eval("return redis.call('nosuch')");
        eval("return redis.call('get')");
        eval("return redis.pcall('nosuch')");
        eval("return redis.pcall('get')");
        eval("redis.call('set','s','a') return redis.call('incr','s')");
        eval("return redis.call()");
        eval("return redis.call(1)");
        eval("return redis.call('set','a',{})");
        eval("return redis.pcall('set','a',{})");
        eval("return redis.call('multi')");
        eval("return redis.call('eval','return 1','0')");
        eval("return redis.call('script','load','return 1')");
        eval("return redis.sha1hex()");
        eval("local function f(n) return f(n+1)+1 end return f(1)");
        eval("return 1", "-1");
        eval("return 1", "2", "a");
        eval("return 1", "x");
        oracle.same("EVALSHA", "0000000000000000000000000000000000000000", "0");
        oracle.same("EVALSHA", "abc", "0");
        // evalShaCommand answers NOSCRIPT for a SHA of the wrong length before evalGenericCommand reads numkeys
        for (String cmd : List.of("EVALSHA", "EVALSHA_RO")) {
            oracle.same(cmd, "abc", "x", "y");
            oracle.same(cmd, "abc", "5");
            oracle.same(cmd, "abc", "-1");
            oracle.same(cmd, "0000000000000000000000000000000000000000", "x", "y");
            oracle.same(cmd, "0000000000000000000000000000000000000000", "5", "y");
            oracle.same(cmd, "0000000000000000000000000000000000000000", "-1");
        }
        oracle.same("FCALL", "nofn", "x", "y");
        oracle.same("FCALL_RO", "nofn", "5");
        oracle.same("EVAL_RO", "return redis.call('set','a','b')", "1", "a");
        oracle.same("EVAL_RO", "return redis.call('get','a')", "1", "a");
        oracle.same("EVAL_RO", "return redis.pcall('del','a')", "1", "a");
        oracle.same("EVAL");
        oracle.same("EVAL", "return 1");
    }

    @Test
    void sandboxMatchesRedis() {
        for (String name : List.of("os", "io", "loadfile", "dofile", "require", "print", "debug", "setfenv",
                "getfenv", "newproxy", "bit32", "module", "package", "load")) {
            eval("return " + name);
        }
        for (String expr : List.of("unpack", "table.getn", "math.mod", "string.gfind", "loadstring", "coroutine",
                "bit", "redis", "string", "table", "math", "rawset", "pcall", "tostring", "gcinfo")) {
            eval("return type(" + expr + ")");
        }
        eval("return _VERSION");
        eval("redis.foo=1");
        eval("string.foo=1");
        eval("_G.x=1");
        eval("rawset(_G, 'x', 1)");
        eval("local t = {} t.x = 1 return t.x");
        eval("return redis.sha1hex('abc')");
        eval("return redis.sha1hex('')");
        eval("return redis.setresp(2)");
        eval("return redis.set_repl(redis.REPL_ALL)");
        eval("return redis.replicate_commands()");
        eval("return redis.setresp()");
        eval("return redis.setresp(2, 3)");
        eval("return redis.set_repl()");
        eval("return redis.set_repl(1, 2)");
        eval("return redis.sha1hex(nil)");
        eval("return redis.sha1hex({})");
        eval("return redis.log(redis.LOG_WARNING,'hi from a test')");
        eval("return {redis.LOG_DEBUG, redis.LOG_VERBOSE, redis.LOG_NOTICE, redis.LOG_WARNING}");
        eval("return {redis.REPL_NONE, redis.REPL_AOF, redis.REPL_REPLICA, redis.REPL_SLAVE, redis.REPL_ALL}");
        eval("return string.format('%d %s %5.2f', 3, 'x', 3.14159)");
        eval("return string.format('%g %g %g %g %.3g %10.4f|%-5d|%05d', 100000, 1e20, 0.0001, 1e-5, 2/3, 3.14159, 42, -42)");
        eval("return string.format('%x %X %o %c %q %s %5s %.2s', 255, 255, 8, 65, 'a\\\"b\\n', 12, 'ab', 'xyz')");
        eval("return string.format('%d', 3.99)");
        eval("return string.format('%z', 1)");
        eval("return table.concat({'a','b','c'}, ',')");
        eval("return table.concat({1, 2, 'a'}, ', ', 2)");
        eval("return table.concat({1, 2, 'a'}, ', ', 3, 1)");
        eval("return table.concat({1.5, 2}, 'x')");
        eval("return table.concat({1, {}, 'a'})");
        eval("return table.concat({1, 2}, '-', 1, 5)");
        // luaL_checkint: the count truncated to 64 bits, then to a C int (2^32 + 1 is 1, 2^31 + 5 negative)
        for (String n : List.of("4294967297", "2^31+5", "2^32+3.7", "-1", "0", "2.9", "'3'", "2^64", "0/0")) {
            eval("return #string.rep('x', " + n + ")");
        }
        eval("return string.rep('ab', 3)");
        eval("local t = {3,1,2} table.sort(t) return t");
        eval("return {string.byte('A'), string.char(66), string.rep('ab', 3), ('x'):upper()}");
        eval("return tostring(3.5)");
        eval("return math.floor(7.9)");
        eval("return select('#', 1, 2, 3)");
        eval("return {pcall(error, 'inner')}");
        eval("return {unpack({1,2,3})}");
    }

    /**
     * The strings' metatable is read-only (Redis 7.0): luaj shares it between every Lua state of the JVM, so a
     * change would reach every later script, the FUNCTION state and other engines.
     */
    @Test
    void theStringMetatableIsReadOnly() {
        eval("getmetatable('').__index.upper = nil");
        eval("getmetatable('').__index = nil");
        eval("getmetatable('').__foo = 1");
        eval("rawset(getmetatable(''), '__index', {})");
        eval("return setmetatable(getmetatable(''), {})");
        eval("return {('x'):upper(), string.upper('y'), ('abc'):len(), ('%d'):format(3)}");
        eval("return type(getmetatable('').__index)");
    }

    /**
     * Redis 7.0's EVAL shebang: {@code #!lua flags=...} (no-writes makes the script read-only; a script with a
     * shebang and without it is refused by EVAL_RO), and its errors, also at SCRIPT LOAD.
     */
    @Test
    void shebangFlagsMatchRedis() {
        eval("#!lua flags=no-writes\nreturn redis.call('set','a','b')");
        eval("#!lua flags=no-writes\nreturn redis.call('get','a')");
        eval("#!lua\nreturn redis.call('set','a','b')");
        eval("#!lua flags=no-writes,allow-oom,no-cluster\nreturn redis.call('get','a')");
        eval("#!lua flags=\nreturn 3");
        eval("#!lua flags=allow-stale,allow-cross-slot-keys\nreturn 4");
        eval("#!lua name=x\nreturn 1");
        eval("#!lua flags=bad\nreturn 1");
        eval("#!lua flags=NO-WRITES\nreturn 1");
        eval("#!lua flags=no-writes,\nreturn 1");
        eval("#!notlua\nreturn 1");
        eval("#!lua");
        eval("#!lua \"unterminated\nreturn 1");
        eval("#!lua\nreturn 1 +");
        eval("#!lua\n\nerror('on line 3')");
        oracle.same("EVAL_RO", "#!lua\nreturn redis.call('get','a')", "0");
        oracle.same("EVAL_RO", "#!lua flags=no-writes\nreturn redis.call('get','a')", "0");
        oracle.same("SCRIPT", "LOAD", "#!lua flags=bad\nreturn 1");
        String body = "#!lua\nreturn redis.call('set','a','c')";
        oracle.same("SCRIPT", "LOAD", body);
        String sha = Sha1.hex(body.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        oracle.same("EVALSHA_RO", sha, "0");
        oracle.same("EVALSHA", sha, "0");
        oracle.same("GET", "a");
    }

    @Test
    void bitMatchesRedis() {
        eval("return {bit.band(0xff, 0x0f), bit.bor(1, 2, 4), bit.bxor(5, 3), bit.bnot(0)}");
        eval("return {bit.lshift(1, 31), bit.rshift(-1, 28), bit.arshift(-256, 4), bit.tobit(2^32 + 5)}");
        eval("return {bit.rol(0x12345678, 8), bit.ror(0x12345678, 8), bit.bswap(0x12345678)}");
        eval("return {bit.tohex(255), bit.tohex(255, 2), bit.tohex(255, -4), bit.tohex(-1)}");
        eval("return bit.band()");
    }

    @Test
    void cjsonMatchesRedis() {
        for (String expr : List.of("{1,2,3,'a'}", "{}", "{a=1}", "{a={b={1.5,true,false}}}",
                "'a/b\"c\\\\d\\n\\t\\1\\127\\128'", "3.14159265358979", "1e20", "0.1", "100000000000000",
                "{[1]=1,[3]=3}", "{[1]=1,[30]=3}", "{[2]='x'}", "{[1.5]='x'}", "function() end", "0/0", "cjson.null",
                "{true}", "123456789012345678", "{k={1,{x={}}}}", "{a={b={c={d={1}}}}}")) {
            eval("return cjson.encode(" + expr + ")");
        }
        eval("return cjson.encode()");
        eval("local t = cjson.decode('{\"a\":[1,2,{\"b\":null}],\"c\":\"x\\\\u00e9\"}')"
                + " return {t.a[1], t.a[2], type(t.a[3].b), t.c, tostring(t.a[3].b == cjson.null)}");
        for (String json : List.of("[1,2", "", "{\"a\":1} x", "1.5", "\"s\"", "[]", "[1e400]", "{\"a\" 1}",
                "{1:2}", "[1,]", "tru", "\"abc", "[-01]", "{\"k\":[true,false,null]}")) {
            eval("return cjson.decode('" + json + "')");
        }
        eval("return cjson.decode()");
        eval("return type(cjson.null)");
        eval("return cjson.encode(cjson.decode('{\"k\":[1,{\"x\":[]}]}'))");
        eval("cjson.foo = 1");
    }

    /**
     * cjson.decode's numbers as C's strtod reads them (decode_invalid_numbers is on by default: hexadecimal, +,
     * leading zeros, infinities, NaN), where a number stops, -0, NUL bytes (the end of lua-cjson's C string) and
     * UTF-16 escapes, lone surrogates included.
     */
    @Test
    void cjsonDecodeReadsWhatRedisReads() {
        for (String expr : List.of("'0x10'", "'-0x1p3'", "'+5'", "'Infinity'", "'-Infinity'", "'inf'",
                "'infinity'", "'infinit'", "'0x'", "'1e'", "'1-2'", "'0x1.8p1'", "'0X1P-2'", "'[0x.8]'", "'[1,NaN]'",
                "'1e400'", "'5.'", "'01'", "'-'", "'.5'", "'nul'", "'NULL'", "'-nan'", "'[1e5,2E-2,-3.5e+2]'",
                "'1\\0garbage'", "'\"a\\0b\"'", "'\\0 1'", "' \\0'", "'\"\\\\ud800\"'",
                "'\"\\\\udc00\"'", "'\"\\\\ud800\\\\u0041\"'", "'\"\\\\ud83d\\\\ude00\"'",
                "'\"\\\\u00e9\\\\u20ac\\\\u0000\"'", "'\"a\\\\x\"'", "'\"\\\\u12\"'", "'\"ab'")) {
            eval("return cjson.decode(" + expr + ")");
        }
        eval("local n = cjson.decode('NaN') return {tostring(n ~= n), type(n)}");
        eval("local n = cjson.decode('nan(123)') return tostring(n ~= n)");
        eval("return cjson.encode(cjson.decode('[NaN]'))");
        eval("return {cjson.encode(cjson.decode('[-0.0, 0.0, -0]')), tostring(cjson.decode('-0'))}");
        eval("return redis.call('set', 'negzero', cjson.decode('-0'))");
        eval("return redis.call('get', 'negzero')");
    }

    /**
     * The settings functions (lua-cjson 2.1.0 as Redis 7.0 builds it): their defaults, argument errors and effects.
     * A setting lasts into the next script on the same Lua state, as in Redis, until SCRIPT FLUSH; cjson.new()
     * has settings of its own.
     */
    @Test
    void cjsonSettingsMatchRedis() {
        oracle.same("SCRIPT", "FLUSH");
        try {
            for (String script : List.of("return cjson._NAME .. ' ' .. cjson._VERSION",
                    "return {cjson.encode_max_depth(), cjson.decode_max_depth(), cjson.encode_number_precision()}",
                    "return {cjson.encode_sparse_array()}", "return cjson.encode_keep_buffer()",
                    "return cjson.encode_invalid_numbers()", "return cjson.decode_invalid_numbers()",
                    // argument errors
                    "return cjson.encode_max_depth(0)", "return cjson.encode_max_depth('x')",
                    "return cjson.encode_max_depth(1, 2)", "return cjson.encode_max_depth(false)",
                    "return cjson.decode_max_depth(-1)", "return cjson.decode_max_depth({})",
                    "return cjson.encode_number_precision(15)", "return cjson.encode_number_precision(0)",
                    "return {cjson.encode_sparse_array('x')}", "return {cjson.encode_sparse_array(1)}",
                    "return {cjson.encode_sparse_array({})}", "return {cjson.encode_sparse_array(true, 'x')}",
                    "return {cjson.encode_sparse_array(nil, nil, -1)}",
                    "return {cjson.encode_sparse_array(nil, nil, nil, 1)}", "return cjson.encode_invalid_numbers('x')",
                    "return cjson.encode_invalid_numbers(2)", "return cjson.encode_keep_buffer('maybe')",
                    "return cjson.decode_invalid_numbers('null')", "return cjson.encode_keep_buffer(true, 1)",
                    // effects; each lasts into the next script
                    "return cjson.encode_max_depth(3)", "return cjson.encode({{{1}}})",
                    "return cjson.encode({{{{1}}}})", "return cjson.encode_max_depth('5')",
                    "return cjson.encode_max_depth(2.7)", "return cjson.encode_max_depth(nil)",
                    "return cjson.encode_max_depth(1e10)", "return cjson.encode_max_depth(1000)",
                    "return cjson.decode_max_depth(2)", "return cjson.decode('[[1]]')", "return cjson.decode('[[[1]]]')",
                    "return cjson.decode('{\"a\":{\"b\":{}}}')", "return cjson.decode_max_depth(1000)",
                    "return cjson.encode_number_precision(3)",
                    "return cjson.encode({math.pi, 1/3, 12345, 1e20, -0.5, 100})",
                    "return cjson.encode({[2.5]='x'})", "return cjson.encode_number_precision(14)",
                    "return {cjson.encode_sparse_array(true, 3, 1)}", "return cjson.encode({[1]=1,[5]=2})",
                    "return cjson.encode({[1]=1,[2]=2,[4]=4})", "return {cjson.encode_sparse_array(false, 0)}",
                    "return cjson.encode({[1]=1,[50]=2})", "return {cjson.encode_sparse_array('on', -1)}",
                    "return {cjson.encode_sparse_array()}", "return {cjson.encode_sparse_array('off', 2, 10)}",
                    "return cjson.encode({[1]=1,[30]=2})",
                    "return cjson.encode_invalid_numbers('null')", "return cjson.encode({1/0, -1/0, 0/0})",
                    "return cjson.encode_invalid_numbers(true)", "return cjson.encode({1/0, -1/0, 0/0, -(0/0)})",
                    "return cjson.encode_invalid_numbers('off')", "return cjson.encode(0/0)",
                    "return cjson.decode_invalid_numbers(false)", "return cjson.decode('0x10')",
                    "return cjson.decode('NaN')", "return cjson.decode('+1')", "return cjson.decode('-Infinity')",
                    "return cjson.decode('01')", "return cjson.decode('-01')", "return cjson.decode('infinity')",
                    "return cjson.decode('[0, -0, 1.5, 10]')", "return cjson.decode_invalid_numbers('on')",
                    "return cjson.encode_keep_buffer(false)", "return cjson.encode({1})",
                    "return cjson.encode_keep_buffer('on')",
                    // cjson.new: a module of its own, at the defaults, writable
                    "local c = cjson.new() c.encode_max_depth(2) return {c.encode_max_depth(),"
                            + " cjson.encode_max_depth(), c.encode({1}), cjson.new().encode_max_depth(), c._VERSION,"
                            + " tostring(c.null == cjson.null)}",
                    "local c = cjson.new() c.encode_max_depth(1) return c.encode({{1}})",
                    "local c = cjson.new() c.foo = 1 return {c.foo, c.new().decode('[1,\"x\"]')}")) {
                eval(script);
            }
            eval("return cjson.encode_max_depth(7)");
        } finally {
            oracle.same("SCRIPT", "FLUSH");
        }
        eval("return {cjson.encode_max_depth(), tostring(cjson.encode_invalid_numbers())}");
    }

    @Test
    void scriptCacheMatchesRedis() {
        oracle.same("SCRIPT", "FLUSH");
        oracle.same("SCRIPT", "LOAD", "return 'loaded'");
        oracle.same("SCRIPT", "EXISTS", "6a3a5e83b1b87fce23eb43e94f9b4b0f3e63a318", "nope");
        String sha = oracle.same("SCRIPT", "LOAD", "return {KEYS[1], ARGV[1]}");
        assertThat(sha).contains("$40");
        oracle.same("EVALSHA", "2a8a3b52a0ab84cdf2a0c2e2b1f0be2e1a9f5b6e", "0");
        oracle.same("SCRIPT", "LOAD", "return 1 +");
        oracle.same("SCRIPT", "FLUSH", "bad");
        oracle.same("SCRIPT", "FLUSH", "ASYNC");
        oracle.same("SCRIPT", "FLUSH", "SYNC", "extra");
        oracle.same("SCRIPT", "FOO");
        oracle.same("SCRIPT");
        oracle.same("SCRIPT", "KILL");
        oracle.same("SCRIPT", "HELP");
        eval("return 'cached by eval'");
        oracle.same("EVALSHA", "d1e2a5e0f3c19d0e8c59b8b05f04e0f8e8b4a0f2", "0");
        oracle.same("SCRIPT", "EXISTS", "D1E2A5E0F3C19D0E8C59B8B05F04E0F8E8B4A0F2");
    }

    @Test
    void commandMetadataMatchesRedis() {
        for (String name : List.of("eval", "evalsha", "eval_ro", "evalsha_ro", "script|load", "script|exists",
                "script|flush", "script|kill", "script|help")) {
            oracle.same("COMMAND", "INFO", name);
        }
        oracle.same("COMMAND", "GETKEYS", "EVAL", "return 1", "2", "a", "b", "c");
        oracle.same("COMMAND", "GETKEYS", "EVALSHA", "abc", "0", "x");
    }

    @Test
    void framesAreTheEffectsOfTheScriptsWrites() {
        oracle.frames().take();
        oracle.same("EVAL", "redis.call('set', KEYS[1], ARGV[1]) redis.call('incr', KEYS[2])"
                + " redis.call('get', KEYS[1]) redis.call('del', 'nothere') return redis.call('lpush', KEYS[3], 'x')",
                "3", "{a}1", "b2", "c3", "v");
        assertThat(oracle.frames().take()).containsExactly("SET {a}1 v", "SET b2 1 KEEPTTL", "LPUSH c3 x");
        oracle.same("EVAL", "redis.call('set', 'e1', 'x') redis.call('hset', 'e2', 'f', 'v')"
                + " redis.call('incr', 'e1')", "0");
        assertThat(oracle.frames().take()).as("writes before the failing call stay, and only they emit")
                .containsExactly("SET e1 x", "HSET e2 f v");
        oracle.same("EVAL_RO", "return redis.call('get', 'e1')", "0");
        oracle.same("EVAL", "return 1 +", "0");
        oracle.same("EVAL", "return redis.pcall('incr', 'e1')", "0");
        assertThat(oracle.frames().take()).as("reads, compile errors and failed calls emit nothing").isEmpty();
    }
}
