package io.kevy.script;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.testing.OracleFixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The {@code struct} and {@code cmsgpack} libraries against a real Redis 7.0, byte for byte: every format
 * option both ways, endianness and alignment, the errors; msgpack of every Lua type and back.
 */
class ScriptLibrariesIT {
    @RegisterExtension
    static final OracleFixture oracle = OracleFixture.create();

    private static void eval(String script) {
        oracle.same("EVAL", script, "0");
    }

    @Test
    void structPackMatchesRedis() {
        for (String args : new String[] {"'b', -1", "'B', 255", "'h', -2", "'H', 65535", "'>h', 258", "'<h', 258",
            "'l', -3", "'L', 2^53", "'>L', 2^63", "'T', 7", "'i', -4", "'I', 4000000000", "'i3', -5", "'>I3', 70000",
            "'i16', -1", "'>i16', 1", "'I1', 300", "'f', 1.5", "'>f', -0.1", "'d', 3.25", "'>d', 1/3", "'x'",
            "'s', 'ab'", "'c', 'xyz'", "'c2', 'xyz'", "'c0', 'xyz'", "'bxh', 1, 2", "'!bxh', 1, 2", "'!4bi', 1, 2",
            "'!2bd', 1, 2", "'!bd', 1, 2", "'>!8bl', 1, 2", "' < b > h', 1, 2", "'sb', 'a\\0b', 7", "'b', '12'",
            "'d', 0/0", "'d', 1/0", "'i', 2^40", "'b', 1.9", "'b', -1.9", "'B', -1"}) {
            eval("return struct.pack(" + args + ")");
        }
        for (String args : new String[] {"'z', 1", "'i33', 1", "'!3b', 1", "'b'", "'b', 'x'", "'b', {}",
            "'c5', 'ab'", "'s'", "'i99999999999', 1", "nil", "'q'"}) {
            eval("return struct.pack(" + args + ")");
        }
    }

    @Test
    void structUnpackMatchesRedis() {
        for (String expr : new String[] {"'b', '\\255'", "'B', '\\255'", "'h', '\\1\\2'", "'>h', '\\255\\254'",
            "'H', '\\255\\255'", "'l', string.rep('\\255', 8)", "'L', '\\1\\0\\0\\0\\0\\0\\0\\0'",
            "'i', '\\1\\2\\3\\4'", "'>I', '\\255\\255\\255\\255'", "'i3', '\\255\\255\\255'", "'bb', 'ab'",
            "'bxb', 'abc'", "'!4bi', 'a\\0\\0\\0\\1\\0\\0\\0'", "'s', 'abc\\0def'", "'ss', 'a\\0b\\0'",
            "'c2', 'abc'", "'bc0', '\\3abcd'", "'b', 'ab', 2", "'bb', 'abc', 2"}) {
            eval("return {struct.unpack(" + expr + ")}");
        }
        eval("return tostring(struct.unpack('f', struct.pack('f', 1.5)))");
        eval("return tostring(struct.unpack('>d', struct.pack('>d', 1/3)))");
        eval("return tostring(struct.unpack('L', string.rep('\\255', 8)))");
        eval("return tostring(struct.unpack('i16', string.rep('\\255', 16)))");
        for (String expr : new String[] {"'i', 'ab'", "'s', 'abc'", "'c0', 'abc'", "'bc0', '\\9ab'", "'z', 'a'",
            "'b', 'a', 5", "'b', 'a', 0", "'b', 'a', -1", "'b'", "'b', {}"}) {
            eval("return {struct.unpack(" + expr + ")}");
        }
    }

    @Test
    void structSizeMatchesRedis() {
        for (String fmt : new String[] {"'b'", "'h'", "'l'", "'T'", "'i'", "'i7'", "'f'", "'d'", "'x'", "'c3'",
            "'bh'", "'!bh'", "'!bd'", "'!4bd'", "'>bi<h'", "'z'", "'s'", "'c0'", "'!3'", "''"}) {
            eval("return struct.size(" + fmt + ")");
        }
        eval("return struct.size()");
        eval("struct.foo = 1");
    }

    @Test
    void cmsgpackPackMatchesRedis() {
        for (String v : new String[] {"0", "1", "127", "128", "255", "256", "65535", "65536", "4294967295",
            "4294967296", "2^53", "-1", "-32", "-33", "-128", "-129", "-32768", "-32769", "-2147483648",
            "-2147483649", "-2^53", "1.5", "0.1", "-2.5", "1/0", "-1/0", "1e300", "2^63", "-2^63", "true", "false",
            "nil", "''", "'abc'", "string.rep('x', 31)", "string.rep('x', 32)", "string.rep('x', 255)",
            "string.rep('x', 256)", "string.rep('x', 65536)", "{}", "{1, 2, 3}", "{1, 'a', {true, false}}",
            "{a = 1}", "{[1] = 1, [3] = 3}", "{[0] = 1}", "{[1.5] = 1}", "{[-1] = 'x'}", "{x = {y = {z = 1}}}",
            "{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}", "function() end",
            "(function() local t = {} local c = t for i = 1, 20 do c[1] = {} c = c[1] end return t end)()"}) {
            eval("return cmsgpack.pack(" + v + ")");
        }
        eval("return cmsgpack.pack(1, 'a', {2})");
        eval("return cmsgpack.pack()");
        eval("return {cmsgpack._NAME, cmsgpack._VERSION, cmsgpack._COPYRIGHT, cmsgpack._DESCRIPTION}");
    }

    @Test
    void cmsgpackUnpackMatchesRedis() {
        for (String v : new String[] {"0", "200", "70000", "5000000000", "-5", "-100", "-1000", "-100000",
            "-5000000000", "1.5", "0.1", "'abc'", "string.rep('y', 300)", "{1, 2, {3, 'x'}}", "{a = 'b'}",
            "true", "false", "{}"}) {
            eval("local v = cmsgpack.unpack(cmsgpack.pack(" + v + ")) if type(v) == 'number' then"
                    + " return tostring(v) elseif type(v) == 'table' then return cjson.encode(v) end return v");
        }
        eval("return {cmsgpack.unpack(cmsgpack.pack(1, 2, 3))}");
        eval("return {cmsgpack.unpack_one(cmsgpack.pack(1, 2, 3))}");
        eval("return {cmsgpack.unpack_one(cmsgpack.pack(1, 2, 3), 1)}");
        eval("return {cmsgpack.unpack_one(cmsgpack.pack(1, 2, 3), 2)}");
        eval("return {cmsgpack.unpack_limit(cmsgpack.pack(1, 2, 3), 2)}");
        eval("return {cmsgpack.unpack_limit(cmsgpack.pack(1, 2, 3), 2, 1)}");
        eval("return {cmsgpack.unpack_limit(cmsgpack.pack(1, 2, 3), 0)}");
        eval("return tostring(cmsgpack.unpack('\\207\\255\\255\\255\\255\\255\\255\\255\\255'))");
        eval("return tostring(cmsgpack.unpack('\\211\\255\\255\\255\\255\\255\\255\\255\\254'))");
        eval("return cmsgpack.unpack('\\192')");
        for (String bad : new String[] {"'\\205\\1'", "'\\193'", "'\\196\\1a'", "'\\147\\1'",
            "'\\217\\5ab'", "'\\129\\192\\1'", "''"}) {
            eval("return {cmsgpack.unpack(" + bad + ")}");
        }
        eval("return cmsgpack.unpack()");
        eval("return cmsgpack.unpack({})");
        eval("return {cmsgpack.unpack_one('\\1', 5)}");
        eval("return {cmsgpack.unpack_one('\\1', -1)}");
        eval("return cmsgpack.unpack_limit('\\1')");
    }

    @Test
    void hostileMsgpackIsAnErrorNotADeadThread() {
        String deep = "return cmsgpack.unpack(string.rep('\\145', 100000) .. '\\1')";
        assertThat(oracle.kevy().raw().call("EVAL", deep, "0")).startsWith("-ERR user_script:1: Bad data format");
        assertThat(oracle.kevy().raw().call("PING")).isEqualTo("+PONG\r\n");
    }
}
