package io.kevy.script;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.testing.OracleFixture;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The runtime errors scripts commonly meet, against a real Redis 7.0 byte for byte: arithmetic, indexing, calls,
 * comparisons and concatenation of wrong types, error() with its levels, the library functions' bad arguments.
 */
class ScriptErrorsIT {
    @RegisterExtension
    static final OracleFixture oracle = OracleFixture.create();

    /** Scripts whose error (or reply) kevy gives as Redis does. */
    static final String[] SCRIPTS = {
        "return 1 + nil", "return #nil", "return {} < {}", "error('boom')", "error('boom', 0)", "error({err='X'})",
        "error()", "error(42)", "return 1 .. {}", "return assert(false)", "return assert(false, 'msg')",
        "return (nil)()", "return x", "y = 1", "return tostring(1/3)", "return string.format('%5.2f', 1/3)",
        "return tostring(1e100)", "return 2^53", "return math.huge", "return tostring(math.huge)",
        "return next({}, 'nope')", "return unpack({}, 1, 1e8)", "return loadstring('return +')()",
        "return cjson.decode('{')", "return tostring(12345678901234567890)", "return 7 % 0", "return tostring(7 % 0)",
        "return -(-0)",
        // glibc rounds the exact binary value half to even (Java's Formatter: the shortest decimal, half up)
        "return tostring(123456789012345)", "return cjson.encode({123456789012345, 2^53 + 0.5})",
        "return string.format('%.0f %.0f %.2f %.1e %.1g %#.3g %+08.2f', 0.5, 2.5, 0.125, 2.25, 0.25, 1, -2.5)",
        "return string.format('%f|%e|%g|%5.1f|%-6G|', 1/0, -1/0, 0/0, 1/0, -1/0)",
        // caught errors as the script sees them: Lua's "user_script:1: msg" (no luaj traceback), and an error
        // table caught by pcall as its err text (Redis 7.0's luaRedisPcall), as the common error_reply(e) needs
        "local ok, e = pcall(function() error('boom') end) return e",
        "local ok, e = pcall(function() local x = nil + 1 end) return e",
        "local ok, e = pcall(function() return undefinedvar end) return e",
        "local ok, e = pcall(function() error({err='t'}) end) return e",
        "local ok, e = pcall(function() error({1, 2}) end) return type(e)",
        "local ok, e = pcall(redis.call, 'incr', 'a', 'b') return e",
        "local ok, e = pcall(redis.call, 'nosuch') return {tostring(ok), e}",
        "local ok, e = pcall(cjson.decode, '{') return redis.error_reply('bad: ' .. e)",
        "redis.call('set', 'w', 'x') local ok, e = pcall(redis.call, 'incr', 'w')"
                + " if not ok then return redis.error_reply(e) end return e",
        "return {xpcall(function() error('e') end, function(m) return 'handled: ' .. m end)}",
        // a coroutine's error as resume hands it over and wrap raises it again (Lua's auxwrap adds the caller's
        // position to a string; a table passes as it is)
        "return {coroutine.resume(coroutine.create(function() error('x') end))}",
        "return {coroutine.resume(coroutine.create(function() error() end))}",
        "local ok, e = coroutine.resume(coroutine.create(function() error({err='z'}) end)) return {type(e), e.err}",
        "return {coroutine.resume(coroutine.create(function() local x = nil + 1 end))}",
        "return coroutine.wrap(function() error('x') end)()", "return coroutine.wrap(function() error(42) end)()",
        "return coroutine.wrap(function() error('x', 0) end)()", "return coroutine.wrap(function() error() end)()",
        "return coroutine.wrap(function() error({err='y'}) end)()",
        "return coroutine.wrap(function() redis.call('nosuch') end)()",
        "return coroutine.wrap(function() return coroutine.wrap(function() error('deep') end)() end)()",
        "local f = coroutine.wrap(function() end) f() return f()",
        "local co = coroutine.create(function() coroutine.yield(1) end) coroutine.resume(co)"
                + " return {coroutine.status(co), coroutine.resume(co)}",
    };
    // Known differences (docs/design.md, scripting): luaj's xpcall hands its handler a string and ignores the
    // handler's result for a table error; Lua names the variable ("attempt to index local 't'",
    // "field 'x'", "method 'bad'"); luaj's "bad argument" texts lack the function's name and argument number;
    // "a[nil] = 1", "'a' < 1" and "t.x.y = 1" have luaj's own texts; error(msg, 2) is positioned; numbers
    // concatenated with .. print as luaj's floats (1/3 .. '' is 0.33333334); -0.0 is 0 (luaj keeps integers).

    @Test
    void commonRuntimeErrorsMatchRedis() {
        List<String> differ = new ArrayList<>();
        for (String s : SCRIPTS) {
            try {
                oracle.same("EVAL", s, "0");
            } catch (AssertionError e) {
                differ.add(s + "\n" + e.getMessage());
            }
        }
        assertThat(differ).as(String.join("\n----\n", differ)).isEmpty();
    }
}
