package io.kevy.script;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.testing.RawClient;
import io.kevy.testing.TestServer;
import java.net.SocketException;
import org.junit.jupiter.api.Test;

/**
 * The memory cap of scripts ({@link ScriptMemory}) on a real kevy-server in the test JVM (its heap, 1 GB): a
 * script filling the heap without bound is stopped with Lua's {@code not enough memory} before the heap is
 * exhausted, a pcall cannot catch it, a {@code string.rep} too large for the heap fails before allocating, as
 * do a concatenation, {@code table.concat} or {@code string.format} longer than a Java array holds and a
 * {@code cjson.encode} whose sparse-array settings let one element become gigabytes of {@code null}s, and
 * the server goes on.
 */
class ScriptMemoryIT {
    @Test
    void aScriptFillingTheHeapIsStoppedBeforeItIsExhausted() throws SocketException {
        try (TestServer server = TestServer.start(); RawClient a = RawClient.connect(server.port())) {
            a.socket().setSoTimeout(60_000); // filling a 1 GB heap takes seconds on a loaded machine
            String fill = "local t = {} for i = 1, 1e9 do t[i] = string.rep('x', 1000) end";
            assertThat(a.call("EVAL", fill, "0")).isEqualTo("-ERR user_script:1: not enough memory script: "
                    + Sha1.hex(fill.getBytes()) + ", on @user_script:1.\r\n");
            assertThat(a.call("SET", "k", "v")).isEqualTo("+OK\r\n");
            assertThat(a.call("EVAL", "return #string.rep('ab', 1000)", "0")).as("the heap is usable again")
                    .isEqualTo(":2000\r\n");
            assertThat(a.call("PING")).isEqualTo("+PONG\r\n");
        }
    }

    @Test
    void aStringTooLargeForTheHeapFailsBeforeItIsBuiltAndPcallCannotCatchIt() {
        try (TestServer server = TestServer.start(); RawClient a = RawClient.connect(server.port())) {
            assertThat(a.call("EVAL", "return #string.rep('ab', 2^29 * 0.9)", "0"))
                    .startsWith("-ERR user_script:1: not enough memory script: ");
            String swallowed = "pcall(string.rep, 'ab', 2^29 * 0.9) return 'survived'";
            assertThat(a.call("EVAL", swallowed, "0")).startsWith("-ERR user_script:1: not enough memory script: ");
            assertThat(a.call("EVAL", "return #string.rep('ab', 2^30)", "0")).as("more than a Java array holds")
                    .startsWith("-ERR user_script:1: not enough memory script: ");
            assertThat(a.call("EVAL", "return #string.rep('ab', 1e6)", "0")).isEqualTo(":2000000\r\n");
            assertThat(a.call("PING")).isEqualTo("+PONG\r\n");
        }
    }

    @Test
    void aConcatenationTooLargeForTheHeapIsNotEnoughMemoryNeverAJavaException() throws SocketException {
        try (TestServer server = TestServer.start(); RawClient a = RawClient.connect(server.port())) {
            a.socket().setSoTimeout(60_000);
            // 1 GB results in a 1 GB heap: refused by the cap, or by the JVM (OutOfMemoryError). A result of 2 GB
            // or more (more than a Java array holds: NegativeArraySizeException in luaj) takes a larger heap than
            // the test JVM's; ScriptErrorsTest covers that exception.
            String s = "local s = string.rep('x', 2^28) ";
            for (String script : java.util.List.of(
                    s + "return #(s .. s .. s .. s)",
                    s + "return #table.concat({s, s, s, s})",
                    s + "return #table.concat({s, s}, s)",
                    s + "return #string.format('%s%s%s%s', s, s, s, s)",
                    s + "local ok, e = pcall(function() return s .. s .. s .. s end) return {ok, e}",
                    s + "pcall(table.concat, {s, s, s, s}) return 'survived'",
                    s + "local ok, e = xpcall(function() return table.concat({s, s, s, s}) end, "
                            + "function(m) return m end) return e",
                    s + "return {coroutine.resume(coroutine.create(function() return table.concat({s, s, s, s}) end))}")) {
                assertThat(a.call("EVAL", script, "0")).as(script)
                        .startsWith("-ERR user_script:1: not enough memory script: ")
                        .doesNotContain("java.");
            }
            assertThat(a.call("EVAL", "return #table.concat({string.rep('x', 2^20), 'y'}, 'ab')", "0"))
                    .as("1 MB is fine").isEqualTo(":1048579\r\n");
            assertThat(a.call("PING")).isEqualTo("+PONG\r\n");
        }
    }

    @Test
    void aSparseArrayEncodedWithoutLimitIsStoppedBeforeTheHeapIsExhausted() throws SocketException {
        try (TestServer server = TestServer.start(); RawClient a = RawClient.connect(server.port())) {
            a.socket().setSoTimeout(60_000);
            String huge = "local c = cjson.new() c.encode_sparse_array(false, 0) return #c.encode({[2^30] = 1})";
            assertThat(a.call("EVAL", huge, "0")).isEqualTo("-ERR user_script:1: not enough memory script: "
                    + Sha1.hex(huge.getBytes()) + ", on @user_script:1.\r\n");
            assertThat(a.call("EVAL", huge.replace("2^30", "2^20"), "0")).as("5 MB of them is fine")
                    .isEqualTo(":5242878\r\n"); // [, 2^20 - 1 nulls and commas, 1, ]
            assertThat(a.call("PING")).isEqualTo("+PONG\r\n");
        }
    }
}
