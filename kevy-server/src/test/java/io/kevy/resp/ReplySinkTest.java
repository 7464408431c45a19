package io.kevy.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import io.kevy.engine.error.ErrorReply;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The default {@link ReplySink#encoded}: pre-encoded RESP2 replayed as calls (sinks that build a tree). */
class ReplySinkTest {
    /** Records each call as text. */
    private static final class Recorder implements ReplySink {
        final List<String> calls = new ArrayList<>();

        @Override public void ok() { calls.add("ok"); }
        @Override public void simple(String s) { calls.add("+" + s); }
        @Override public void error(ErrorReply error) { calls.add("-"); }
        @Override public void integer(long v) { calls.add(":" + v); }
        @Override public void bulk(byte[] b) { bulk(b, 0, b.length); }
        @Override public void bulk(byte[] b, int off, int len) {
            calls.add("$" + new String(b, off, len, StandardCharsets.ISO_8859_1));
        }
        @Override public void nullBulk() { calls.add("$-1"); }
        @Override public void nullArray() { calls.add("*-1"); }
        @Override public void array(int n) { calls.add("*" + n); }
    }

    @Test
    void decodesArraysIntegersAndBulkStringsInOrder() {
        byte[] b = ("xx*2\r\n:1234\r\n*3\r\n$3\r\nSET\r\n$0\r\n\r\n$4\r\na\r\nb\r\n:-7\r\nyy")
                .getBytes(StandardCharsets.ISO_8859_1);
        Recorder r = new Recorder();
        r.encoded(b, 2, b.length - 4);
        assertThat(r.calls).containsExactly("*2", ":1234", "*3", "$SET", "$", "$a\r\nb", ":-7");
    }

    @Test
    void rejectsOtherTypes() {
        byte[] b = "+OK\r\n".getBytes(StandardCharsets.ISO_8859_1);
        assertThatThrownBy(() -> new Recorder().encoded(b, 0, b.length)).isInstanceOf(IllegalArgumentException.class);
    }
}
