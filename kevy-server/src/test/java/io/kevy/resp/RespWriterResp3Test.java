package io.kevy.resp;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The RESP3 types of {@link RespWriter}: on protocol 2 each writes exactly what Redis 7.0 sends a RESP2 client
 * ({@code networking.c}'s {@code addReplyMapLen}, {@code addReplyDouble}, ...), on protocol 3 the RESP3 type.
 */
class RespWriterResp3Test {
    private static String write(int protocol, Consumer<ReplySink> reply) {
        RespWriter w = new RespWriter(UnpooledByteBufAllocator.DEFAULT, protocol);
        reply.accept(w);
        ByteBuf b = w.take();
        try {
            return b == null ? "" : b.toString(StandardCharsets.ISO_8859_1);
        } finally {
            if (b != null) {
                b.release();
            }
        }
    }

    private static void both(Consumer<ReplySink> reply, String resp2, String resp3) {
        assertThat(write(2, reply)).as("RESP2").isEqualTo(resp2);
        assertThat(write(3, reply)).as("RESP3").isEqualTo(resp3);
    }

    @Test
    void aggregates() {
        both(r -> r.map(2), "*4\r\n", "%2\r\n");
        both(r -> r.map(600), "*1200\r\n", "%600\r\n");
        both(r -> r.set(3), "*3\r\n", "~3\r\n");
        both(r -> r.push(3), "*3\r\n", ">3\r\n");
        both(r -> {
            r.pairs(1);
            r.pair();
        }, "*2\r\n", "*1\r\n*2\r\n");
        both(r -> {
            r.keyedMap(1);
            r.keyedEntry();
        }, "*1\r\n*2\r\n", "%1\r\n");
    }

    @Test
    void scalars() {
        both(r -> r.doubleValue(1.5), "$3\r\n1.5\r\n", ",1.5\r\n");
        both(r -> r.doubleValue(0.1), "$19\r\n0.10000000000000001\r\n", ",0.10000000000000001\r\n");
        both(r -> r.doubleValue(Double.NEGATIVE_INFINITY), "$4\r\n-inf\r\n", ",-inf\r\n");
        both(r -> r.doubleText("13.36".getBytes(StandardCharsets.US_ASCII)), "$5\r\n13.36\r\n", ",13.36\r\n");
        both(r -> r.bool(true), ":1\r\n", "#t\r\n");
        both(r -> r.bool(false), ":0\r\n", "#f\r\n");
        both(r -> r.bigNumber("12345678901234567890".getBytes(StandardCharsets.US_ASCII)),
                "$20\r\n12345678901234567890\r\n", "(12345678901234567890\r\n");
        both(r -> r.verbatim("a\r\nb".getBytes(StandardCharsets.US_ASCII), "txt"), "$4\r\na\r\nb\r\n",
                "=8\r\ntxt:a\r\nb\r\n");
        both(ReplySink::nullBulk, "$-1\r\n", "_\r\n");
        both(ReplySink::nullArray, "*-1\r\n", "_\r\n");
    }

    @Test
    void pushedMessagesBecomePushFrames() {
        byte[] message = "*3\r\n$7\r\nmessage\r\n$1\r\nc\r\n$1\r\np\r\n".getBytes(StandardCharsets.US_ASCII);
        assertThat(write(2, r -> ((RespWriter) r).pushEncoded(message)))
                .isEqualTo("*3\r\n$7\r\nmessage\r\n$1\r\nc\r\n$1\r\np\r\n");
        assertThat(write(3, r -> ((RespWriter) r).pushEncoded(message)))
                .isEqualTo(">3\r\n$7\r\nmessage\r\n$1\r\nc\r\n$1\r\np\r\n");
    }

    @Test
    void theProtocolSwitchesBothWays() {
        RespWriter w = new RespWriter(UnpooledByteBufAllocator.DEFAULT);
        assertThat(w.protocol()).isEqualTo(2);
        w.protocol(3);
        assertThat(w.protocol()).isEqualTo(3);
        w.protocol(2);
        assertThat(w.protocol()).isEqualTo(2);
        w.discard();
    }

    /** The embedded store's and the appliers' sinks keep RESP2: the defaults are Redis's RESP2 encodings. */
    @Test
    void defaultsAreTheResp2Encodings() {
        StringBuilder sb = new StringBuilder();
        ReplySink recorder = new ReplySink() {
            @Override public void ok() { sb.append("+OK "); }
            @Override public void simple(String s) { sb.append('+').append(s).append(' '); }
            @Override public void error(io.kevy.engine.error.ErrorReply e) { sb.append("- "); }
            @Override public void integer(long v) { sb.append(':').append(v).append(' '); }
            @Override public void bulk(byte[] b) { bulk(b, 0, b.length); }
            @Override public void bulk(byte[] b, int off, int len) {
                sb.append('$').append(new String(b, off, len, StandardCharsets.ISO_8859_1)).append(' ');
            }
            @Override public void nullBulk() { sb.append("$-1 "); }
            @Override public void nullArray() { sb.append("*-1 "); }
            @Override public void array(int n) { sb.append('*').append(n).append(' '); }
        };
        recorder.protocol(3); // ignored: this sink speaks RESP2 only
        recorder.map(2);
        recorder.set(1);
        recorder.pairs(2);
        recorder.pair();
        recorder.keyedMap(1);
        recorder.keyedEntry();
        recorder.doubleValue(2.5);
        recorder.bool(true);
        recorder.verbatim(new byte[] {'x'}, "txt");
        assertThat(recorder.protocol()).isEqualTo(2);
        assertThat(sb.toString()).isEqualTo("*4 *1 *4 *1 *2 $2.5 :1 $x ");
    }
}
