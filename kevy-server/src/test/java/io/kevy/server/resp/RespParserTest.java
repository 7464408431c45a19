package io.kevy.server.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RespParserTest {
    private final ProtocolLimits limits = new ProtocolLimits();
    private final RespParser parser = new RespParser(limits);
    private final ByteBuf in = Unpooled.buffer();

    @AfterEach
    void release() {
        in.release();
    }

    private static String str(byte[][] argv) {
        List<String> l = new ArrayList<>();
        for (byte[] a : argv) {
            l.add(new String(a, StandardCharsets.ISO_8859_1));
        }
        return String.join("|", l);
    }

    private List<String> feed(String s) {
        in.writeBytes(s.getBytes(StandardCharsets.ISO_8859_1));
        List<String> out = new ArrayList<>();
        byte[][] argv;
        while ((argv = parser.parse(in, true)) != null) {
            out.add(str(argv));
        }
        return out;
    }

    @Test
    void multibulkAndPipelining() {
        assertThat(feed("*2\r\n$3\r\nGET\r\n$1\r\nk\r\n*1\r\n$4\r\nPING\r\n")).containsExactly("GET|k", "PING");
        assertThat(in.isReadable()).isFalse();
    }

    @Test
    void oneByteAtATimeGivesTheSameCommands() {
        String wire = "*3\r\n$3\r\nSET\r\n$5\r\nk\r\ney\r\n$0\r\n\r\nPING\r\n\"ECHO\" \"a b\"\r\n*0\r\n*-1\r\n"
                + "*2\r\n$4\r\nECHO\r\n$3\r\n\u0000\u00ff\n\r\n";
        List<String> out = new ArrayList<>();
        for (char ch : wire.toCharArray()) {
            in.writeByte(ch);
            byte[][] argv;
            while ((argv = parser.parse(in, true)) != null) {
                out.add(str(argv));
            }
        }
        assertThat(out).containsExactly("SET|k\r\ney|", "PING", "ECHO|a b", "ECHO|\u0000\u00ff\n");
    }

    @Test
    void randomSplitsGiveTheSameCommands() {
        long seed = System.nanoTime();
        System.out.println("RespParserTest.randomSplitsGiveTheSameCommands seed=" + seed);
        Random rnd = new Random(seed);
        StringBuilder wire = new StringBuilder();
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            int argc = 1 + rnd.nextInt(5);
            wire.append('*').append(argc).append("\r\n");
            List<String> args = new ArrayList<>();
            for (int a = 0; a < argc; a++) {
                StringBuilder arg = new StringBuilder();
                int len = rnd.nextInt(20);
                for (int j = 0; j < len; j++) {
                    arg.append((char) rnd.nextInt(256));
                }
                wire.append('$').append(len).append("\r\n").append(arg).append("\r\n");
                args.add(arg.toString());
            }
            expected.add(String.join("|", args));
        }
        byte[] bytes = wire.toString().getBytes(StandardCharsets.ISO_8859_1);
        List<String> out = new ArrayList<>();
        int pos = 0;
        while (pos < bytes.length) {
            int n = Math.min(bytes.length - pos, 1 + rnd.nextInt(64));
            in.writeBytes(bytes, pos, n);
            pos += n;
            byte[][] argv;
            while ((argv = parser.parse(in, true)) != null) {
                out.add(str(argv));
            }
        }
        assertThat(out).isEqualTo(expected);
    }

    @Test
    void inlineQuotingFollowsSdssplitargs() {
        assertThat(feed("SET key \"a\\x41\\n\" 'it\\'s'\r\n")).containsExactly("SET|key|aA\n|it's");
        assertThat(feed("   \r\n\n")).isEmpty();
        assertThat(feed("PING\n")).containsExactly("PING");
    }

    @Test
    void protocolErrorsCarryRedisTexts() {
        assertError("*abc\r\n", "invalid multibulk length");
        assertError("*1\r\n$-5\r\n", "invalid bulk length");
        assertError("*1\r\n$x\r\n", "invalid bulk length");
        assertError("*1\r\n+PING\r\n", "expected '$', got '+'");
        assertError("*3000000000\r\n", "invalid multibulk length");
        assertError("SET \"unbalanced\r\n", "unbalanced quotes in request");
        assertError("SET \"a\"b\r\n", "unbalanced quotes in request");
    }

    /** The one-pass header reading keeps the general rules at its edges (18 digits, leading zeros, a lone CR). */
    @Test
    void headerEdgesFollowTheGeneralRules() {
        assertThat(feed("*1\r\n$0\r\n\r\n")).containsExactly("");
        assertError("*01\r\n", "invalid multibulk length");
        assertError("*1\r\n$03\r\nabc\r\n", "invalid bulk length");
        assertError("*1\r\n$999999999999999999\r\n", "invalid bulk length"); // 18 digits, over the limit
        assertError("*1\r\n$9999999999999999999\r\n", "invalid bulk length"); // 19 digits: the general path
        assertError("*1\r\n$99999999999999999999\r\n", "invalid bulk length"); // over Long.MAX_VALUE
        assertError("*1\r\n$3x\r\nabc\r\n", "invalid bulk length");
        assertThat(feed("*1\r\n$4\r")).isEmpty(); // the LF has not arrived: nothing consumed
        assertThat(feed("\nPING\r\n")).containsExactly("PING");
    }

    @Test
    void limitsAreCheckedBeforeAllocating() {
        limits.maxBulkLen(1024 * 1024);
        assertError("*1\r\n$1048577\r\n", "invalid bulk length");
        limits.maxMultibulkLen(100);
        assertError("*101\r\n", "invalid multibulk length");
        // a huge declared count within limits must not pre-size anything large
        limits.maxMultibulkLen(ProtocolLimits.DEFAULT_MAX_MULTIBULK_LEN);
        assertThat(feed("*1000000\r\n$1\r\na\r\n")).isEmpty();
    }

    @Test
    void inlineAndHeaderLengthsAreBounded() {
        String longLine = "x".repeat(ProtocolLimits.MAX_INLINE_LEN + 1);
        assertError(longLine, "too big inline request");
        assertError("*" + "1".repeat(ProtocolLimits.MAX_INLINE_LEN + 1), "too big mbulk count string");
        assertError("*1\r\n$" + "1".repeat(ProtocolLimits.MAX_INLINE_LEN + 1), "too big bulk count string");
    }

    @Test
    void unauthenticatedClientsGetSmallLimits() {
        in.writeBytes("*11\r\n".getBytes(StandardCharsets.US_ASCII));
        assertThatThrownBy(() -> parser.parse(in, false)).isInstanceOf(ProtocolException.class)
                .hasMessage("unauthenticated multibulk length");
        RespParser p2 = new RespParser(limits);
        ByteBuf b = Unpooled.copiedBuffer("*1\r\n$16385\r\n", StandardCharsets.US_ASCII);
        try {
            assertThatThrownBy(() -> p2.parse(b, false)).hasMessage("unauthenticated bulk length");
        } finally {
            b.release();
        }
    }

    @Test
    void halfACommandHoldsOnlyWhatArrived() {
        assertThat(feed("*2\r\n$3\r\nGET\r\n$100000000\r\nabc")).isEmpty();
        // nothing was copied for the incomplete bulk: the bytes stay in the input buffer only
        assertThat(in.readableBytes()).isEqualTo(3);
    }

    private void assertError(String wire, String message) {
        RespParser p = new RespParser(limits);
        ByteBuf b = Unpooled.copiedBuffer(wire, StandardCharsets.ISO_8859_1);
        try {
            assertThatThrownBy(() -> {
                while (p.parse(b, true) != null) {
                    // drain
                }
            }).isInstanceOf(ProtocolException.class).hasMessage(message);
            assertThat(new ProtocolException(message).replyText()).isEqualTo("ERR Protocol error: " + message);
        } finally {
            b.release();
        }
    }
}
